// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The licence (README#licence): GPL-3.0-or-later, because gpuplan links Qt Charts (GPL-3.0).
// Every source file says so in an SPDX header near its top, the LICENSE file holds the GPL
// version 3 text, and the AppStream metainfo and the .deb's copyright file name the same
// licence. Source files are found by walking the source tree, so a file added without the
// header fails here.
#include "testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QByteArray kSpdx = "SPDX-License-Identifier: GPL-3.0-or-later";

/// Whether `relative` (a path inside the source tree) is a source file: code, build files and
/// scripts. Data (JSON, CSV), documents and generated trees are not.
bool isSourceFile(const QString& relative, const QByteArray& head)
{
    static const QStringList suffixes = {".cpp", ".h", ".cu", ".cuh", ".cmake", ".sh", ".py"};
    for (const QString& s : suffixes)
        if (relative.endsWith(s))
            return true;
    return relative.endsWith("CMakeLists.txt") || head.startsWith("#!");
}

bool isSkippedDir(const QString& relative)
{
    const QString top = relative.section('/', 0, 0);
    return top.startsWith("build") || (top.startsWith('.') && top != ".ci") || relative.startsWith("tests/data") ||
           relative.startsWith("tests/fuzz/regressions") || relative.startsWith("tests/fuzz/seeds") || top == "data" ||
           top == "docs";
}

/// The source files under `root` that lack the SPDX header in their first five lines.
QStringList filesWithoutHeader(const QString& root, int* checked = nullptr)
{
    QStringList missing;
    int n = 0;
    const QDir base(root);
    QDirIterator it(root, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = base.relativeFilePath(path);
        if (isSkippedDir(rel))
            continue;
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            missing << rel + " (unreadable)";
            continue;
        }
        QByteArray head;
        for (int line = 0; line < 5 && !f.atEnd(); ++line)
            head += f.readLine();
        if (!isSourceFile(rel, head))
            continue;
        ++n;
        if (!head.contains(kSpdx))
            missing << rel;
    }
    if (checked)
        *checked = n;
    missing.sort();
    return missing;
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestLicence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void detectorFindsAFileWithoutTheHeader()
    {
        QTemporaryDir tmp;
        QDir(tmp.path()).mkpath("core/calc");
        QDir(tmp.path()).mkpath("data");
        const auto write = [&](const QString& rel, const QByteArray& text) {
            QFile f(tmp.filePath(rel));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        write("core/calc/good.cpp", "// " + kSpdx + "\nint x;\n");
        write("core/calc/bad.h", "#pragma once\n");
        write("run", "#!/bin/sh\necho hi\n");
        write("data/table.json", "{}");
        write("CMakeLists.txt", "# " + kSpdx + "\nproject(x)\n");
        int checked = 0;
        const QStringList missing = filesWithoutHeader(tmp.path(), &checked);
        QCOMPARE(checked, 4);
        QCOMPARE(missing, (QStringList{"core/calc/bad.h", "run"}));
    }

    void everySourceFileHasTheHeader()
    {
        int checked = 0;
        const QStringList missing = filesWithoutHeader(gp::test::sourceDir(), &checked);
        QVERIFY2(checked > 200, qPrintable(QString("only %1 source files found").arg(checked)));
        QVERIFY2(missing.isEmpty(), qPrintable("no SPDX-License-Identifier header: " + missing.join(", ")));
    }

    void licenceFileAndMetadataAgree()
    {
        const QString src = gp::test::sourceDir();
        const QByteArray licence = readAll(src + "/LICENSE");
        QVERIFY(licence.contains("GNU GENERAL PUBLIC LICENSE"));
        QVERIFY(licence.contains("Version 3, 29 June 2007"));
        QVERIFY(readAll(src + "/packaging/org.gpuplan.gpuplan.metainfo.xml")
                    .contains("<project_license>GPL-3.0-or-later</project_license>"));
        const QByteArray copyright = readAll(src + "/packaging/copyright");
        QVERIFY(copyright.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"));
        QVERIFY(copyright.contains("\nLicense: GPL-3+\n"));
        const QByteArray readme = readAll(src + "/README.md");
        QVERIFY(readme.contains("## Licence"));
        QVERIFY(readme.contains("GPL-3.0-or-later"));
    }
};

QTEST_GUILESS_MAIN(TestLicence)
#include "tst_licence.moc"
