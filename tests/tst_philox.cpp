// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// The counter-based generator shared by the CPU and CUDA backends must be the published
// Philox4x32-10: known-answer vectors from Random123 (Salmon et al., SC'11; kat_vectors).
#include "sim/philox.h"

#include <QSignalSpy>
#include <QTest>

using gp::sim::Philox4x32;

class TestPhilox : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void knownAnswers_data()
    {
        QTest::addColumn<QList<quint32>>("counter");
        QTest::addColumn<QList<quint32>>("key");
        QTest::addColumn<QList<quint32>>("expected");
        QTest::newRow("zeros") << QList<quint32>{0, 0, 0, 0} << QList<quint32>{0, 0}
                               << QList<quint32>{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8};
        QTest::newRow("ones") << QList<quint32>{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}
                              << QList<quint32>{0xffffffff, 0xffffffff}
                              << QList<quint32>{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd};
        QTest::newRow("pi") << QList<quint32>{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}
                            << QList<quint32>{0xa4093822, 0x299f31d0}
                            << QList<quint32>{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
    }

    void knownAnswers()
    {
        QFETCH(QList<quint32>, counter);
        QFETCH(QList<quint32>, key);
        QFETCH(QList<quint32>, expected);
        const auto out = Philox4x32::generate({{counter[0], counter[1], counter[2], counter[3]}}, key[0], key[1]);
        for (int i = 0; i < 4; ++i)
            QCOMPARE(out.v[i], expected[i]);
    }

    void unitIntervalIsHalfOpenAndSpread()
    {
        QCOMPARE(Philox4x32::toUnit(0, 0), 0.0);
        QVERIFY(Philox4x32::toUnit(0xffffffff, 0xffffffff) < 1.0);
        double sum = 0;
        const int n = 20000;
        for (int i = 0; i < n; ++i) {
            const auto b = Philox4x32::generate({{static_cast<quint32>(i), 0, 0, 0}}, 42, 7);
            const double u = Philox4x32::toUnit(b.v[0], b.v[1]);
            QVERIFY(u >= 0.0 && u < 1.0);
            sum += u;
        }
        QVERIFY(qAbs(sum / n - 0.5) < 0.01); // mean of U[0,1): 0.5 ± 3σ (σ = 0.29/√n = 0.002)
    }
};

QTEST_GUILESS_MAIN(TestPhilox)
#include "tst_philox.moc"
