// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "miglayoutview.h"

#include "model/miglayout.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace gp::ui {

namespace {

constexpr int kMargin = 6;
constexpr int kComputeTop = 18, kComputeHeight = 12;
constexpr int kMemoryTop = 34, kMemoryHeight = 42;
constexpr int kNumbersTop = kMemoryTop + kMemoryHeight + 2;
constexpr int kChipsTop = kNumbersTop + 18;
constexpr int kChipHeight = 22;

/// A colour per instance size: small ones light, the whole GPU dark.
QColor blockColour(int memorySlices) { return QColor::fromHsv(265, 60 + memorySlices * 20, 235 - memorySlices * 12); }

/// A profile's name in its block: on one line when it fits, else "1g" over "5gb".
void drawName(QPainter& p, const QRect& r, const QString& name)
{
    if (p.fontMetrics().horizontalAdvance(name) <= r.width() - 4 || !name.contains('.')) {
        p.drawText(r, Qt::AlignCenter, name);
        return;
    }
    const QString compute = name.section('.', 0, 0), memory = name.section('.', 1);
    p.drawText(QRect(r.left(), r.top(), r.width(), r.height() / 2), Qt::AlignHCenter | Qt::AlignBottom, compute);
    p.drawText(QRect(r.left(), r.center().y(), r.width(), r.height() / 2), Qt::AlignHCenter | Qt::AlignTop, memory);
}

} // namespace

MigLayoutView::MigLayoutView(QWidget* parent) : QWidget(parent)
{
    setObjectName("migLayoutView");
    setFocusPolicy(Qt::ClickFocus);
    setMouseTracking(false);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setToolTip(tr("Drag a profile onto the memory slices to add an instance, or an instance to move it; green "
                  "marks the start slices the MIG rules allow. Delete or double-click removes the selected "
                  "instance."));
}

void MigLayoutView::setGpu(const GpuSpec* gpu)
{
    mGpu = gpu;
    updateGeometry();
    update();
}

void MigLayoutView::setInstances(std::vector<MigInstance> instances)
{
    mInstances = std::move(instances);
    if (mSelected >= static_cast<int>(mInstances.size()))
        mSelected = -1;
    update();
}

const MigProfile* MigLayoutView::profile(const QString& name) const
{
    return mGpu ? mGpu->migProfile(name.toStdString()) : nullptr;
}

QRect MigLayoutView::sliceRect(int slice) const
{
    const double w = (width() - 2.0 * kMargin) / mig::kMemorySlices;
    return QRect(static_cast<int>(kMargin + slice * w), kMemoryTop, static_cast<int>(w), kMemoryHeight);
}

QRect MigLayoutView::instanceRect(int index) const
{
    if (index < 0 || index >= static_cast<int>(mInstances.size()))
        return {};
    const MigInstance& inst = mInstances[static_cast<std::size_t>(index)];
    const MigProfile* p = profile(QString::fromStdString(inst.profile));
    const int span = p ? p->memorySlices : 1;
    return sliceRect(inst.start).united(sliceRect(std::min(inst.start + span - 1, mig::kMemorySlices - 1)));
}

std::vector<std::pair<QString, QRect>> MigLayoutView::chips(int w) const
{
    std::vector<std::pair<QString, QRect>> out;
    if (!mGpu)
        return out;
    const QFontMetrics fm(font());
    int x = kMargin, y = kChipsTop;
    for (const MigProfile& p : mGpu->migProfiles) {
        const QString name = QString::fromStdString(p.name);
        const int cw = fm.horizontalAdvance(name) + 14;
        if (x > kMargin && x + cw > w - kMargin) {
            x = kMargin;
            y += kChipHeight + 4;
        }
        out.emplace_back(name, QRect(x, y, cw, kChipHeight));
        x += cw + 4;
    }
    return out;
}

QRect MigLayoutView::chipRect(const QString& name) const
{
    for (const auto& [n, r] : chips(width()))
        if (n == name)
            return r;
    return {};
}

int MigLayoutView::heightForWidth(int w) const
{
    const auto c = chips(w);
    return (c.empty() ? kChipsTop : c.back().second.bottom()) + kMargin;
}

QSize MigLayoutView::sizeHint() const { return {280, heightForWidth(280)}; }
QSize MigLayoutView::minimumSizeHint() const { return {200, heightForWidth(200)}; }

QList<int> MigLayoutView::validStarts(const QString& name, int except) const
{
    QList<int> out;
    const MigProfile* p = profile(name);
    if (!p)
        return out;
    std::vector<MigInstance> others;
    for (int i = 0; i < static_cast<int>(mInstances.size()); ++i)
        if (i != except)
            others.push_back(mInstances[static_cast<std::size_t>(i)]);
    for (int start : p->startSlices) {
        std::vector<MigInstance> candidate = others;
        candidate.push_back({p->name, start});
        if (mig::check(*mGpu, candidate).empty())
            out << start;
    }
    return out;
}

int MigLayoutView::sliceAt(int x) const
{
    const double w = (width() - 2.0 * kMargin) / mig::kMemorySlices;
    return std::clamp(static_cast<int>((x - kMargin) / w), 0, mig::kMemorySlices - 1);
}

int MigLayoutView::landing(const QString& name, int slice, int except) const
{
    const MigProfile* p = profile(name);
    if (!p)
        return -1;
    int best = -1;
    for (int start : validStarts(name, except))
        if (start <= slice && slice < start + p->memorySlices)
            best = std::max(best, start);
    return best;
}

int MigLayoutView::instanceAt(QPoint at) const
{
    for (int i = 0; i < static_cast<int>(mInstances.size()); ++i)
        if (instanceRect(i).contains(at))
            return i;
    return -1;
}

QString MigLayoutView::chipAt(QPoint at) const
{
    for (const auto& [name, r] : chips(width()))
        if (r.contains(at))
            return name;
    return {};
}

void MigLayoutView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const QPoint at = event->position().toPoint();
    if (const int i = instanceAt(at); i >= 0) {
        mSelected = i;
        Q_EMIT selectionChanged(i);
        mDrag = Drag{QString::fromStdString(mInstances[static_cast<std::size_t>(i)].profile), i, at, -1, -1, false};
    } else if (const QString chip = chipAt(at); !chip.isEmpty())
        mDrag = Drag{chip, -1, at, -1, -1, false};
    else {
        mSelected = -1;
        Q_EMIT selectionChanged(-1);
    }
    update();
}

void MigLayoutView::mouseMoveEvent(QMouseEvent* event)
{
    if (!mDrag)
        return;
    const QPoint at = event->position().toPoint();
    mDrag->moved = mDrag->moved || (at - mDrag->pressedAt).manhattanLength() > 4;
    if (!mDrag->moved)
        return;
    const bool overSlices = at.y() >= kComputeTop - 10 && at.y() <= kNumbersTop + 10;
    mDrag->hoverSlice = overSlices ? sliceAt(at.x()) : -1;
    mDrag->target = overSlices ? landing(mDrag->profile, mDrag->hoverSlice, mDrag->from) : -1;
    update();
}

void MigLayoutView::mouseReleaseEvent(QMouseEvent* event)
{
    if (!mDrag || event->button() != Qt::LeftButton)
        return;
    const Drag drag = *mDrag;
    mDrag.reset();
    update();
    if (!drag.moved || drag.target < 0)
        return;
    if (drag.from < 0)
        Q_EMIT addRequested(drag.profile, drag.target);
    else if (drag.target != mInstances[static_cast<std::size_t>(drag.from)].start)
        Q_EMIT moveRequested(drag.from, drag.target);
}

void MigLayoutView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (const int i = instanceAt(event->position().toPoint()); i >= 0)
        Q_EMIT removeRequested(i);
}

void MigLayoutView::keyPressEvent(QKeyEvent* event)
{
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && mSelected >= 0) {
        Q_EMIT removeRequested(mSelected);
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

void MigLayoutView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    if (!mGpu || !mGpu->supportsMig()) {
        p.setPen(pal.placeholderText().color());
        p.drawText(rect(), Qt::AlignCenter, tr("This GPU has no MIG"));
        return;
    }
    // Compute slices: used out of seven.
    int compute = 0;
    for (const MigInstance& inst : mInstances)
        if (const MigProfile* prof = profile(QString::fromStdString(inst.profile)))
            compute += prof->computeSlices;
    p.setPen(pal.text().color());
    p.drawText(QRect(kMargin, 0, width() - 2 * kMargin, kComputeTop - 2), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Compute slices %1 of 7 · memory slices below").arg(compute));
    const double cw = (width() - 2.0 * kMargin) / mig::kComputeSlices;
    for (int c = 0; c < mig::kComputeSlices; ++c) {
        const QRectF cell(kMargin + c * cw, kComputeTop, cw - 2, kComputeHeight);
        p.setPen(QPen(pal.mid().color(), 1));
        p.setBrush(c < compute ? QColor("#6a3d9a") : pal.base());
        p.drawRect(cell);
    }
    // Memory slices, the allowed starts marked while dragging.
    const QList<int> starts = mDrag && mDrag->moved ? validStarts(mDrag->profile, mDrag->from) : QList<int>();
    for (int s = 0; s < mig::kMemorySlices; ++s) {
        const QRect r = sliceRect(s).adjusted(1, 0, -1, 0);
        p.setPen(QPen(pal.mid().color(), 1));
        p.setBrush(starts.contains(s) ? QColor(89, 161, 79, 90) : pal.alternateBase());
        p.drawRect(r);
        p.setPen(pal.text().color());
        p.drawText(QRect(r.left(), kNumbersTop, r.width(), 16), Qt::AlignCenter, QString::number(s));
    }
    // The instances.
    for (int i = 0; i < static_cast<int>(mInstances.size()); ++i) {
        if (mDrag && mDrag->moved && mDrag->from == i)
            continue; // drawn where it would land
        const MigInstance& inst = mInstances[static_cast<std::size_t>(i)];
        const MigProfile* prof = profile(QString::fromStdString(inst.profile));
        const QRect r = instanceRect(i).adjusted(3, 4, -3, -4);
        p.setPen(QPen(i == mSelected ? pal.highlight().color() : QColor("#3d2259"), i == mSelected ? 3 : 1));
        p.setBrush(blockColour(prof ? prof->memorySlices : 1));
        p.drawRoundedRect(r, 4, 4);
        p.setPen(Qt::white);
        drawName(p, r, QString::fromStdString(inst.profile));
    }
    if (mDrag && mDrag->moved && mDrag->hoverSlice >= 0) {
        const MigProfile* prof = profile(mDrag->profile);
        const int span = prof ? prof->memorySlices : 1;
        const int from = mDrag->target >= 0 ? mDrag->target : mDrag->hoverSlice;
        const QRect ghost =
            sliceRect(from).united(sliceRect(std::min(from + span - 1, mig::kMemorySlices - 1))).adjusted(3, 4, -3, -4);
        const QColor c = mDrag->target >= 0 ? QColor("#59a14f") : QColor("#e15759");
        p.setPen(QPen(c, 2, Qt::DashLine));
        p.setBrush(QColor(c.red(), c.green(), c.blue(), 70));
        p.drawRoundedRect(ghost, 4, 4);
        p.setPen(pal.text().color());
        drawName(p, ghost, mDrag->profile);
    }
    // The profiles to drag from.
    for (const auto& [name, r] : chips(width())) {
        const MigProfile* prof = profile(name);
        const bool addable = !validStarts(name).isEmpty();
        p.setPen(QPen(QColor("#3d2259"), 1));
        p.setBrush(addable ? blockColour(prof ? prof->memorySlices : 1) : pal.window().color());
        p.drawRoundedRect(r, 4, 4);
        p.setPen(addable ? Qt::white : pal.placeholderText().color());
        p.drawText(r, Qt::AlignCenter, name);
    }
}

} // namespace gp::ui
