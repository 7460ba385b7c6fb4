// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "welcomepanel.h"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace gp::ui {

WelcomePanel::WelcomePanel(const std::vector<std::pair<qint64, QString>>& scenarios, QWidget* window)
    : QFrame(window), mWindow(window), mShowAtStart(new QCheckBox(tr("Show this at start"), this))
{
    setObjectName("WelcomePanel");
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setStyleSheet("#WelcomePanel { background: palette(base); border: 1px solid palette(mid); border-radius: 8px; }");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(22, 16, 22, 16);
    auto* top = new QHBoxLayout;
    auto* title = new QLabel(tr("<h2>Welcome to gpuplan</h2>"), this);
    auto* close = new QToolButton(this);
    close->setObjectName("welcomeClose");
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Esc); Help > Welcome shows this again"));
    close->setAutoRaise(true);
    top->addWidget(title, 1);
    top->addWidget(close, 0, Qt::AlignTop);
    layout->addLayout(top);
    auto* intro = new QLabel(tr("Lay out GPU nodes and switches, add tenants and their jobs, choose how each GPU is "
                                "shared, and see whether every job fits, how much slower it runs than on bare "
                                "metal, and what it costs."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addSpacing(8);
    if (!scenarios.empty()) {
        layout->addWidget(new QLabel(tr("<b>Open a sample or a saved plan</b>"), this));
        auto* grid = new QGridLayout;
        int i = 0;
        for (const auto& [id, name] : scenarios) {
            auto* b = new QPushButton(name, this);
            b->setObjectName(QString("welcomeScenario-%1").arg(id));
            b->setToolTip(tr("Open “%1” from the library").arg(name));
            connect(b, &QPushButton::clicked, this, [this, id = id] {
                hide();
                Q_EMIT scenarioChosen(id);
            });
            grid->addWidget(b, i / 2, i % 2);
            ++i;
        }
        layout->addLayout(grid);
        layout->addSpacing(8);
    }
    layout->addWidget(new QLabel(tr("<b>Or</b>"), this));
    auto* actions = new QHBoxLayout;
    auto action = [this, actions](const QString& text, const char* name, void (WelcomePanel::*signal)()) {
        auto* b = new QPushButton(text, this);
        b->setObjectName(name);
        connect(b, &QPushButton::clicked, this, [this, signal] {
            hide();
            Q_EMIT(this->*signal)();
        });
        actions->addWidget(b);
    };
    action(tr("Start a Blank Plan"), "welcomeBlank", &WelcomePanel::blankChosen);
    action(tr("Import a Scenario File…"), "welcomeImport", &WelcomePanel::importChosen);
    action(tr("Open the User Guide"), "welcomeGuide", &WelcomePanel::guideChosen);
    layout->addLayout(actions);
    layout->addSpacing(6);
    mShowAtStart->setObjectName("welcomeShowAtStart");
    mShowAtStart->setChecked(showAtStart());
    connect(mShowAtStart, &QCheckBox::toggled, this, [](bool on) { QSettings().setValue("welcome/show", on); });
    layout->addWidget(mShowAtStart);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    mWindow->installEventFilter(this);
    adjustSize();
    centre();
}

bool WelcomePanel::showAtStart() { return QSettings().value("welcome/show", true).toBool(); }

void WelcomePanel::centre()
{
    const QSize size = sizeHint().expandedTo(QSize(560, 0)).boundedTo(mWindow->size() - QSize(16, 16));
    resize(size);
    move((mWindow->width() - width()) / 2, std::max(8, (mWindow->height() - height()) / 2));
}

bool WelcomePanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == mWindow && event->type() == QEvent::Resize)
        centre();
    return QFrame::eventFilter(watched, event);
}

void WelcomePanel::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        event->accept();
        return;
    }
    QFrame::keyPressEvent(event);
}

} // namespace gp::ui
