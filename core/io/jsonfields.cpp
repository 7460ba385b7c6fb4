// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "jsonfields.h"

#include "model/checks.h"

#include <cmath>

namespace gp::io {

JsonFields::JsonFields(const QJsonObject& object, std::string path, Issues& out)
    : mObject(object), mPath(std::move(path)), mOut(out)
{
}

std::string JsonFields::pathOf(const char* key) const { return checks::field(mPath, key); }

std::string describe(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null: return "null";
    case QJsonValue::Bool: return v.toBool() ? "true" : "false";
    case QJsonValue::Double: return "the number " + checks::num(v.toDouble());
    case QJsonValue::String: {
        std::string s = v.toString().left(40).toStdString();
        return "the string \"" + s + (v.toString().size() > 40 ? "...\"" : "\"");
    }
    case QJsonValue::Array: return "an array";
    case QJsonValue::Object: return "an object";
    default: return "nothing";
    }
}

void JsonFields::wrongType(const char* key, const QJsonValue& v, const char* expected)
{
    mOut.push_back(Issue::error(pathOf(key), std::string("expected ") + expected + ", found " + describe(v)));
}

const QJsonValue* JsonFields::fetch(const char* key, bool required, const char* expected)
{
    const QString k = QLatin1String(key);
    mSeen.insert(k);
    auto it = mObject.constFind(k);
    if (it == mObject.constEnd()) {
        if (required)
            mOut.push_back(Issue::error(pathOf(key), std::string("is missing (") + expected + ")"));
        return nullptr;
    }
    mCurrent = it.value();
    return &mCurrent;
}

std::string JsonFields::string(const char* key, const std::string& fallback, bool required, TextKind kind)
{
    const QJsonValue* v = fetch(key, required, "a string");
    if (!v)
        return fallback;
    if (!v->isString()) {
        wrongType(key, *v, "a string");
        return fallback;
    }
    std::string s = v->toString().toStdString();
    if (std::string why = textProblem(s, kind); !why.empty()) {
        mOut.push_back(Issue::error(pathOf(key), std::move(why)));
        return fallback;
    }
    return s;
}

double JsonFields::number(const char* key, double fallback, bool required)
{
    const QJsonValue* v = fetch(key, required, "a number");
    if (!v)
        return fallback;
    if (!v->isDouble()) {
        wrongType(key, *v, "a number");
        return fallback;
    }
    const double d = v->toDouble();
    if (!std::isfinite(d)) {
        mOut.push_back(Issue::error(pathOf(key), "must be a finite number"));
        return fallback;
    }
    return d;
}

int JsonFields::integer(const char* key, int fallback, bool required)
{
    const QJsonValue* v = fetch(key, required, "an integer");
    if (!v)
        return fallback;
    if (!v->isDouble()) {
        wrongType(key, *v, "an integer");
        return fallback;
    }
    const double d = v->toDouble();
    if (!std::isfinite(d) || std::floor(d) != d) {
        mOut.push_back(Issue::error(pathOf(key), checks::num(d) + " must be a whole number"));
        return fallback;
    }
    const std::optional<int> i = checks::exactInteger<int>(d);
    if (!i) {
        mOut.push_back(Issue::error(pathOf(key), checks::num(d) + " is too large"));
        return fallback;
    }
    return *i;
}

std::optional<double> JsonFields::optionalNumber(const char* key)
{
    if (!has(key)) {
        mSeen.insert(QLatin1String(key));
        return std::nullopt;
    }
    const std::size_t before = mOut.size();
    const double d = number(key, 0.0);
    return mOut.size() == before ? std::optional<double>(d) : std::nullopt;
}

std::optional<int> JsonFields::optionalInteger(const char* key)
{
    if (!has(key)) {
        mSeen.insert(QLatin1String(key));
        return std::nullopt;
    }
    const std::size_t before = mOut.size();
    const int i = integer(key, 0);
    return mOut.size() == before ? std::optional<int>(i) : std::nullopt;
}

bool JsonFields::boolean(const char* key, bool fallback)
{
    const QJsonValue* v = fetch(key, false, "true or false");
    if (!v)
        return fallback;
    if (!v->isBool()) {
        wrongType(key, *v, "true or false");
        return fallback;
    }
    return v->toBool();
}

std::optional<QJsonObject> JsonFields::object(const char* key, bool required)
{
    const QJsonValue* v = fetch(key, required, "an object");
    if (!v)
        return std::nullopt;
    if (!v->isObject()) {
        wrongType(key, *v, "an object");
        return std::nullopt;
    }
    return v->toObject();
}

std::optional<QJsonArray> JsonFields::array(const char* key, bool required)
{
    const QJsonValue* v = fetch(key, required, "an array");
    if (!v)
        return std::nullopt;
    if (!v->isArray()) {
        wrongType(key, *v, "an array");
        return std::nullopt;
    }
    return v->toArray();
}

void JsonFields::finish()
{
    for (auto it = mObject.constBegin(); it != mObject.constEnd(); ++it)
        if (!mSeen.contains(it.key()))
            mOut.push_back(Issue::error(checks::field(mPath, it.key().toStdString()),
                                        "unknown field (misspelt, or not part of this format version)"));
}

ModelArchitecture readArchitecture(JsonFields& f)
{
    // Optional fields default to ModelArchitecture's own defaults, the one set the CLI's memory
    // calculator and the Add Job dialog share.
    const ModelArchitecture defaults;
    ModelArchitecture a;
    a.layers = f.integer("layers", 0, true);
    a.hiddenSize = f.integer("hidden_size", 0, true);
    a.attentionHeads = f.integer("attention_heads", 0, true);
    a.kvHeads = f.integer("kv_heads", a.attentionHeads);
    a.ffnHiddenSize = f.integer("ffn_hidden_size", 0, true);
    a.vocabSize = f.integer("vocab_size", 0, true);
    a.sequenceLength = f.integer("sequence_length", 0, true);
    a.experts = f.integer("experts", defaults.experts);
    a.activeExperts = f.integer("active_experts", defaults.activeExperts);
    a.gatedFfn = f.boolean("gated_ffn", defaults.gatedFfn);
    a.dropout = f.boolean("dropout", defaults.dropout);
    a.headDim = f.integer("head_dim", defaults.headDim);
    a.moeFfnHiddenSize = f.integer("moe_ffn_hidden_size", defaults.moeFfnHiddenSize);
    a.sharedExperts = f.integer("shared_experts", defaults.sharedExperts);
    a.denseLayers = f.integer("dense_layers", defaults.denseLayers);
    a.kvLoraRank = f.integer("kv_lora_rank", defaults.kvLoraRank);
    a.qLoraRank = f.integer("q_lora_rank", defaults.qLoraRank);
    a.qkRopeHeadDim = f.integer("qk_rope_head_dim", defaults.qkRopeHeadDim);
    a.vHeadDim = f.integer("v_head_dim", defaults.vHeadDim);
    a.mtpLayers = f.integer("mtp_layers", defaults.mtpLayers);
    return a;
}

std::optional<QJsonObject> asObject(const QJsonValue& v, const std::string& path, Issues& out)
{
    if (v.isObject())
        return v.toObject();
    out.push_back(Issue::error(path, "expected an object, found " + describe(v)));
    return std::nullopt;
}

} // namespace gp::io
