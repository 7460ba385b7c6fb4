// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QByteArray>
#include <QString>

#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

namespace gp::io {

/// One YAML document of a cluster export, written by yaml-cpp: quoting and escaping are right by
/// construction (docs/export.md). A first comment line states what the file is for, a second where
/// it came from.
class YamlOut
{
public:
    YamlOut(const QString& what, const std::string& scenario)
    {
        mOut << YAML::Comment(what.toStdString()) << YAML::Newline;
        mOut << YAML::Comment("Exported by gpuplan from the scenario \"" + scenario + "\" (docs/export.md).")
             << YAML::Newline;
    }
    YAML::Emitter& out() { return mOut; }
    QByteArray bytes() const { return QByteArray(mOut.c_str()) + '\n'; }

private:
    YAML::Emitter mOut;
};

/// A string that stays a string: double-quoted, so no id, name or label the plan writes can read
/// back as a number, a boolean or a null.
struct Quoted
{
    const std::string& text;
};
inline YAML::Emitter& operator<<(YAML::Emitter& out, const Quoted& q) { return out << YAML::DoubleQuoted << q.text; }

/// `id` as a Kubernetes object name or namespace (an RFC 1123 DNS label: lower-case letters,
/// digits and '-', at most 63, starting and ending with a letter or digit); "x" when nothing is left.
inline std::string dnsLabel(const std::string& id, std::size_t maxLength = 63)
{
    std::string s;
    for (char c : id) {
        const char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
        const bool ok = (l >= 'a' && l <= 'z') || (l >= '0' && l <= '9');
        if (ok)
            s += l;
        else if (!s.empty() && s.back() != '-')
            s += '-';
    }
    if (s.size() > maxLength)
        s.resize(maxLength);
    while (!s.empty() && s.back() == '-')
        s.pop_back();
    return s.empty() ? std::string("x") : s;
}

/// A tenant file's `unplaced:` — the jobs the plan could not place, quoted ([] when none).
inline void unplacedJobs(YAML::Emitter& o, const std::vector<std::string>& jobs)
{
    o << YAML::Key << "unplaced" << YAML::Value;
    if (jobs.empty())
        o << YAML::Flow;
    o << YAML::BeginSeq;
    for (const std::string& j : jobs)
        o << Quoted{j};
    o << YAML::EndSeq;
}

/// An export README's list of the files it wrote, one Markdown item each.
inline QString markdownFileList(const std::vector<std::pair<QString, QByteArray>>& files)
{
    QString list;
    for (const auto& [name, content] : files)
        list += QString("- `%1`\n").arg(name);
    return list;
}

} // namespace gp::io
