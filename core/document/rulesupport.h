// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

// What the rule files (commands.cpp, jobedits.cpp) share: turning a builder into an accepted
// or refused edit.
#include "edit.h"

#include "model/catalog.h"
#include "model/issue.h"
#include "model/validation.h"

#include <string>
#include <utility>

namespace gp::document::rules {

/// The edit when the core's rules found no error in its result (`issues`), else only the errors.
inline Result<Edit> accepted(Issues issues, Edit edit)
{
    if (hasErrors(issues)) {
        Issues errors;
        for (Issue& i : issues)
            if (i.isError())
                errors.push_back(std::move(i));
        return Result<Edit>::failure(std::move(errors));
    }
    return Result<Edit>::success(std::move(edit), std::move(issues));
}

/// The builder's scenario checked with every rule of the core; its errors refuse the edit.
inline Result<Edit> validated(EditBuilder&& b, const Catalog& catalog, const std::string& text,
                              const std::string& mergeKey = {})
{
    Issues issues = validateScenario(b.scenario(), catalog);
    return accepted(std::move(issues), std::move(b).finish(text, mergeKey));
}

} // namespace gp::document::rules
