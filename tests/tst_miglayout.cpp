// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
// MIG placement rules of NVIDIA's MIG User Guide ("Supported MIG Profiles"): 8 memory
// slices and 7 compute slices; instances start at their profile's allowed placements;
// no overlap; per-profile instance limits.
#include "model/limits.h"
#include "model/miglayout.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <set>

using namespace gp;

namespace {

mig::Layout L(std::initializer_list<std::pair<const char*, int>> items)
{
    mig::Layout l;
    for (const auto& [p, s] : items)
        l.push_back({p, s});
    return l;
}

std::string key(const mig::Layout& l)
{
    std::string k;
    for (const auto& i : l)
        k += i.profile + "@" + std::to_string(i.start) + " ";
    return k;
}

/// Independent reference: choose or skip each (profile, start) pair in catalog order,
/// keeping only sets that mig::check accepts. Different order, same set of layouts.
void reference(const GpuSpec& gpu, const std::vector<std::pair<std::string, int>>& pairs, std::size_t i,
               mig::Layout& cur, std::set<std::string>& out)
{
    if (i == pairs.size()) {
        if (!cur.empty()) {
            mig::Layout sorted = cur;
            std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
            out.insert(key(sorted));
        }
        return;
    }
    reference(gpu, pairs, i + 1, cur, out);
    cur.push_back({pairs[i].first, pairs[i].second});
    if (mig::check(gpu, cur).empty())
        reference(gpu, pairs, i + 1, cur, out);
    cur.pop_back();
}

} // namespace

class TestMigLayout : public QObject
{
    Q_OBJECT

    const GpuSpec* a100() { return test::bundledCatalog().gpu("a100-40gb"); }

private Q_SLOTS:
    void validLayoutsFromTheGuide_data()
    {
        QTest::addColumn<int>("row");
        QTest::newRow("7g.40gb") << 0;
        QTest::newRow("4g + 3g") << 1;
        QTest::newRow("3g + 3g") << 2;
        QTest::newRow("seven 1g") << 3;
        QTest::newRow("3g + 2g + 1g") << 4;
        QTest::newRow("2g + 2g + 3g") << 5;
        QTest::newRow("1g.10gb x3 + 1g.5gb") << 6;
    }
    void validLayoutsFromTheGuide()
    {
        QFETCH(int, row);
        const mig::Layout layouts[] = {
            L({{"7g.40gb", 0}}),
            L({{"4g.20gb", 0}, {"3g.20gb", 4}}),
            L({{"3g.20gb", 0}, {"3g.20gb", 4}}),
            L({{"1g.5gb", 0},
               {"1g.5gb", 1},
               {"1g.5gb", 2},
               {"1g.5gb", 3},
               {"1g.5gb", 4},
               {"1g.5gb", 5},
               {"1g.5gb", 6}}),
            L({{"3g.20gb", 0}, {"2g.10gb", 4}, {"1g.5gb", 6}}),
            L({{"2g.10gb", 0}, {"2g.10gb", 2}, {"3g.20gb", 4}}),
            L({{"1g.10gb", 0}, {"1g.10gb", 2}, {"1g.10gb", 4}, {"1g.5gb+me", 6}}),
        };
        const auto v = mig::check(*a100(), layouts[row]);
        QVERIFY2(v.empty(), v.empty() ? "" : v.front().message.c_str());
    }

    void invalidLayoutsSayWhy_data()
    {
        QTest::addColumn<int>("row");
        QTest::addColumn<int>("instance");
        QTest::addColumn<QString>("message");
        QTest::newRow("1g at slice 7") << 0 << 0 << "start slice 7 is not allowed for 1g.5gb (allowed: 0,1,2,3,4,5,6)";
        QTest::newRow("2g at slice 6") << 1 << 1 << "start slice 6 is not allowed for 2g.10gb (allowed: 0,2,4)";
        QTest::newRow("4g not at 0") << 2 << 1 << "start slice 4 is not allowed for 4g.20gb";
        QTest::newRow("overlap") << 3 << 1 << "memory slice 1 is already used by instance 0";
        QTest::newRow("two +me") << 4 << 1 << "more than 1 instance(s) of 1g.5gb+me";
        QTest::newRow("compute > 7") << 5 << -1 << "instances use 9 compute slices; the GPU has 7";
        QTest::newRow("unknown profile") << 6 << 0 << "profile '3g.40gb' does not exist on A100 40GB SXM";
        QTest::newRow("third 3g") << 7 << 1 << "memory slice 4 is already used";
    }
    void invalidLayoutsSayWhy()
    {
        QFETCH(int, row);
        QFETCH(int, instance);
        QFETCH(QString, message);
        const mig::Layout layouts[] = {
            L({{"1g.5gb", 7}}),
            L({{"3g.20gb", 0}, {"2g.10gb", 6}}),
            L({{"3g.20gb", 0}, {"4g.20gb", 4}}),
            L({{"2g.10gb", 0}, {"1g.5gb", 1}}),
            L({{"1g.5gb+me", 0}, {"1g.5gb+me", 1}}),
            L({{"4g.20gb", 0}, {"1g.5gb", 4}, {"1g.5gb", 5}, {"1g.10gb", 6}, {"2g.10gb", 2}}),
            L({{"3g.40gb", 0}}),
            L({{"3g.20gb", 4}, {"2g.10gb", 4}}),
        };
        const auto v = mig::check(*a100(), layouts[row]);
        bool found = false;
        for (const auto& x : v)
            found |= x.instance == instance && QString::fromStdString(x.message).contains(message);
        QString all;
        for (const auto& x : v)
            all += QString("[%1] %2\n").arg(x.instance).arg(QString::fromStdString(x.message));
        QVERIFY2(found, qPrintable(all));
    }

    void nonMigGpuIsRefused()
    {
        const auto v = mig::check(*test::bundledCatalog().gpu("l40s-48gb"), L({{"1g.5gb", 0}}));
        QCOMPARE(v.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(v[0].message).contains("does not support MIG"));
        QVERIFY(mig::enumerate(*test::bundledCatalog().gpu("l40s-48gb"), {}, false).empty());
    }

    /// The classic A100 profiles (1g, 2g, 3g, 4g, 7g) have 19 maximal layouts: 7g alone,
    /// or one of 6 ways to fill memory slices 0-3 times one of 3 ways to fill 4-6(7).
    void a100ClassicMaximalLayouts()
    {
        const auto maximal = mig::enumerate(*a100(), {"1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"}, true);
        QCOMPARE(maximal.size(), std::size_t(19));
        std::set<std::string> keys;
        for (const auto& l : maximal)
            keys.insert(key(l));
        QVERIFY(keys.count("7g.40gb@0 "));
        QVERIFY(keys.count("4g.20gb@0 3g.20gb@4 "));
        QVERIFY(keys.count("3g.20gb@0 3g.20gb@4 "));
        QVERIFY(keys.count("2g.10gb@0 2g.10gb@2 2g.10gb@4 1g.5gb@6 "));
        QVERIFY(keys.count("1g.5gb@0 1g.5gb@1 1g.5gb@2 1g.5gb@3 1g.5gb@4 1g.5gb@5 1g.5gb@6 "));
        QVERIFY(!keys.count("4g.20gb@0 ")); // 3g.20gb still fits at 4
    }

    void enumerationAgreesWithBruteForce_data()
    {
        QTest::addColumn<QString>("gpu");
        for (const char* g : {"a100-40gb", "a100-80gb", "h100-80gb", "h200-141gb", "b200-180gb"})
            QTest::newRow(g) << QString(g);
    }
    void enumerationAgreesWithBruteForce()
    {
        QFETCH(QString, gpu);
        const GpuSpec* g = test::bundledCatalog().gpu(gpu.toStdString());
        std::vector<std::pair<std::string, int>> pairs;
        for (const auto& p : g->migProfiles)
            for (int s : p.startSlices)
                pairs.push_back({p.name, s});
        std::set<std::string> expected;
        mig::Layout cur;
        reference(*g, pairs, 0, cur, expected);
        const auto all = mig::enumerate(*g, {}, false);
        std::set<std::string> got;
        for (const auto& l : all) {
            QVERIFY(mig::check(*g, l).empty());
            QVERIFY2(got.insert(key(l)).second, key(l).c_str()); // no duplicates
        }
        QCOMPARE(got.size(), expected.size());
        QVERIFY(got == expected);
        // Maximal layouts are the ones nothing more fits into.
        const auto maximal = mig::enumerate(*g, {}, true);
        QVERIFY(!maximal.empty() && maximal.size() < all.size());
        for (const auto& l : maximal)
            for (const auto& [p, s] : pairs) {
                mig::Layout more = l;
                more.push_back({p, s});
                QVERIFY2(!mig::check(*g, more).empty(), (key(l) + "+ " + p).c_str());
            }
    }

    /// A user catalog may define many small profiles: ten 1-slice ones have ~10^8 layouts (the
    /// enumeration ran out of memory). It stops at limits::kMaxMigLayouts and says so, quickly.
    void manySmallProfilesAreBounded()
    {
        GpuSpec g = *a100();
        g.migProfiles.clear();
        for (int i = 0; i < 10; ++i) {
            MigProfile p;
            p.name = "1g.p" + std::to_string(i);
            p.profileId = 100 + i;
            p.computeSlices = 1;
            p.memorySlices = 1;
            p.usableGiB = 4.75;
            p.smCount = 14;
            p.maxInstances = 7;
            p.startSlices = {0, 1, 2, 3, 4, 5, 6};
            g.migProfiles.push_back(p);
        }
        QElapsedTimer timer;
        timer.start();
        for (bool maximal : {false, true}) {
            const mig::Enumeration e =
                mig::enumerateBounded(g, {}, maximal, limits::kMaxMigLayouts, limits::kMaxMigSearchSteps);
            QVERIFY(e.truncated);
            QCOMPARE(e.layouts.size(), limits::kMaxMigLayouts);
            QVERIFY2(QString::fromStdString(e.limitReason).contains("10,000 layouts"), e.limitReason.c_str());
            for (std::size_t i = 0; i < e.layouts.size(); i += 97)
                QVERIFY(mig::check(g, e.layouts[i]).empty());
            QCOMPARE(mig::enumerate(g, {}, maximal).size(), limits::kMaxMigLayouts);
        }
        QVERIFY2(timer.elapsed() < 20000, qPrintable(QString::number(timer.elapsed())));
        // The step bound stops a search whose layouts are few but whose partial layouts are many.
        const mig::Enumeration steps = mig::enumerateBounded(g, {}, true, 1000000, 5000);
        QVERIFY(steps.truncated);
        QVERIFY2(QString::fromStdString(steps.limitReason).contains("5,000 partial layouts"),
                 steps.limitReason.c_str());
    }

    /// At the limit exactly, the enumeration is complete and says so; one fewer, it is not.
    void limitIsExact()
    {
        const std::size_t all = mig::enumerate(*a100(), {}, false).size();
        QVERIFY(all > 10 && all < limits::kMaxMigLayouts);
        const mig::Enumeration exact = mig::enumerateBounded(*a100(), {}, false, all, limits::kMaxMigSearchSteps);
        QVERIFY(!exact.truncated);
        QCOMPARE(exact.layouts.size(), all);
        QVERIFY(exact.limitReason.empty());
        const mig::Enumeration fewer = mig::enumerateBounded(*a100(), {}, false, all - 1, limits::kMaxMigSearchSteps);
        QVERIFY(fewer.truncated);
        QCOMPARE(fewer.layouts.size(), all - 1);
    }

    void profileRestriction()
    {
        const auto only3g = mig::enumerate(*a100(), {"3g.20gb"}, false);
        QCOMPARE(only3g.size(), std::size_t(3)); // @0, @4, both
        const auto max3g = mig::enumerate(*a100(), {"3g.20gb"}, true);
        QCOMPARE(max3g.size(), std::size_t(1));
        QCOMPARE(key(max3g[0]), std::string("3g.20gb@0 3g.20gb@4 "));
    }
};

QTEST_GUILESS_MAIN(TestMigLayout)
#include "tst_miglayout.moc"
