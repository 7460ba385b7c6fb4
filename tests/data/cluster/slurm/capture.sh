#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 The gpuplan developers
# Captures what the Slurm installed here prints about GPU nodes and jobs, for tst_clusterimport:
# starts a single-node Slurm (munged, slurmctld, slurmd from Debian's slurm-wlm, as
# tests/slurmcluster.h does) whose node has GPU GRES (4 x gpu:h100 and 7 x gpu:1g.10gb, each
# a device node made with mknod so that slurmd counts it), submits six jobs (one an array of two,
# one too large to start, one without GPUs), and writes sinfo --json, squeue --json and
# scontrol show nodes|jobs --oneliner into this folder (CAPTURE_OUT to change). Needs root.
set -u
out=${CAPTURE_OUT:-$(cd "$(dirname "$0")" && pwd)}
d=$(mktemp -d /tmp/gpuplan-slurmcap-XXXXXX)
mkdir -p $d/state $d/spool $d/log $d/munge $d/dev
chown munge:munge $d/munge; chmod 755 $d
host=$(hostname)
base=$((30000 + $$ % 10000 * 2))
for i in 0 1 2 3 4 5 6 7 8 9 10; do mknod $d/dev/nvidia$i c 195 $i; done
cat > $d/slurm.conf <<CONF
ClusterName=gpuplantest
SlurmctldHost=$host
SlurmctldPort=$base
SlurmdPort=$((base+1))
AuthType=auth/munge
AuthInfo=socket=$d/munge/munge.socket.2
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
GresTypes=gpu
NodeName=$host CPUs=32 Gres=gpu:h100:4,gpu:1g.10gb:7 State=UNKNOWN
PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
cat > $d/gres.conf <<CONF
AutoDetect=off
NodeName=$host Name=gpu Type=h100 File=$d/dev/nvidia[0-3]
NodeName=$host Name=gpu Type=1g.10gb File=$d/dev/nvidia[4-10]
CONF
export SLURM_CONF=$d/slurm.conf
runuser -u munge -- /usr/sbin/munged --socket=$d/munge/munge.socket.2 --pid-file=$d/munge/munged.pid \
    --log-file=$d/munge/munged.log --seed-file=$d/munge/seed
/usr/sbin/slurmctld -f $d/slurm.conf
/usr/sbin/slurmd -f $d/slurm.conf
for i in $(seq 1 40); do s=$(sinfo -h -o %T 2>&1); [ "$s" = idle ] && break; sleep 0.5; done
printf '#!/bin/sh\nsleep 120\n' > $d/job.sh
chmod +x $d/job.sh
sub() { sbatch --chdir=$d --output=/dev/null "$@" $d/job.sh; }
sub --job-name=llama-pretrain --account=research --gres=gpu:h100:2
sub --job-name=chat-serve --account=product --gres=gpu:1g.10gb:3
sub --job-name=notebook --account=product --gres=gpu:h100:1
sub --job-name=eval-sweep --account=research --gres=gpu:1g.10gb:1 --array=0-1
sub --job-name=big-finetune --account=research --gres=gpu:h100:4
sub --job-name=cpu-only --account=product
sleep 3
sinfo --json > $out/sinfo.json
squeue --json > $out/squeue.json
scontrol show nodes --oneliner > $out/scontrol-nodes.txt
scontrol show jobs --oneliner > $out/scontrol-jobs.txt
scancel --full --user=root
sleep 2
for f in $d/slurmd.pid $d/slurmctld.pid $d/munge/munged.pid; do [ -f $f ] && kill $(cat $f); done
sleep 1
rm -rf $d
