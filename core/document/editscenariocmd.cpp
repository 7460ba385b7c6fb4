#include "editscenariocmd.h"

#include "document.h"

namespace gp::document {

EditScenarioCmd::EditScenarioCmd(Document* document, Scenario changed, const QString& text)
    : mDocument(document), mOther(std::move(changed))
{
    setText(text);
}

void EditScenarioCmd::redo() { mDocument->swapScenario(mOther); }

} // namespace gp::document
