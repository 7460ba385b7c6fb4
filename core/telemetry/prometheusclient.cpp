// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#include "prometheusclient.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrlQuery>

#include <cmath>
#include <utility>

namespace gp::telemetry {

QString FetchError::text() const
{
    return url + ": " + message + (query.isEmpty() ? QString() : " (query: " + query + ")");
}

namespace {

RangeAnswer failed(FetchFailure kind, const QString& url, const QString& query, const QString& message)
{
    RangeAnswer a;
    a.error = FetchError{kind, url, query, message};
    return a;
}

/// Prometheus writes sample times as numbers and values as strings ("0.5", "NaN", "+Inf").
std::optional<double> numberOf(const QJsonValue& v)
{
    if (v.isDouble())
        return v.toDouble();
    bool ok = false;
    const double d = v.toString().toDouble(&ok);
    if (!ok || !std::isfinite(d))
        return std::nullopt;
    return d;
}

} // namespace

RangeAnswer parseRangeAnswer(const QByteArray& body, const QString& url, const QString& query)
{
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return failed(FetchFailure::BadAnswer, url, query,
                      QString("the answer is not JSON (%1 at byte %2): is this a Prometheus server?")
                          .arg(pe.errorString())
                          .arg(pe.offset));
    const QJsonObject root = doc.object();
    const QString status = root.value("status").toString();
    if (status == "error")
        return failed(FetchFailure::QueryError, url, query,
                      QString("Prometheus refused the query: %1: %2")
                          .arg(root.value("errorType").toString("error"), root.value("error").toString()));
    if (status != "success")
        return failed(FetchFailure::BadAnswer, url, query,
                      "the answer has no \"status\": \"success\": is this a Prometheus server?");
    const QJsonObject data = root.value("data").toObject();
    if (data.value("resultType").toString() != "matrix")
        return failed(FetchFailure::BadAnswer, url, query,
                      QString("data.resultType is \"%1\", a range query answers \"matrix\"")
                          .arg(data.value("resultType").toString()));
    RangeAnswer a;
    const QJsonArray result = data.value("result").toArray();
    for (qsizetype i = 0; i < result.size(); ++i) {
        const QJsonObject s = result.at(i).toObject();
        Series series;
        const QJsonObject metric = s.value("metric").toObject();
        for (auto it = metric.begin(); it != metric.end(); ++it)
            series.labels[it.key().toStdString()] = it.value().toString().toStdString();
        const QJsonArray values = s.value("values").toArray();
        series.samples.reserve(static_cast<std::size_t>(values.size()));
        for (const auto& p : values) {
            const QJsonArray pair = p.toArray();
            if (pair.size() != 2)
                return failed(FetchFailure::BadAnswer, url, query,
                              QString("data.result[%1].values: a point is not [time, \"value\"]").arg(i));
            const auto t = numberOf(pair.at(0));
            const auto v = numberOf(pair.at(1));
            if (t && v)
                series.samples.push_back({*t, *v});
        }
        a.series.push_back(std::move(series));
    }
    return a;
}

PrometheusClient::PrometheusClient(QUrl base, int timeoutMs, const std::atomic<bool>* stop)
    : mBase(std::move(base)), mTimeoutMs(timeoutMs), mStop(stop)
{
}

RangeAnswer PrometheusClient::queryRange(const RangeQuery& q) const
{
    const QString shown = mBase.toString(QUrl::RemoveUserInfo);
    if (!mBase.isValid() || (mBase.scheme() != "http" && mBase.scheme() != "https") || mBase.host().isEmpty())
        return failed(FetchFailure::BadUrl, shown, q.promql,
                      "not an http:// or https:// address of a Prometheus server (e.g. http://prometheus:9090)");
    QUrl url = mBase;
    QString path = url.path();
    while (path.endsWith('/'))
        path.chop(1);
    url.setPath(path + "/api/v1/query_range");
    QUrlQuery params;
    params.addQueryItem("query", q.promql);
    params.addQueryItem("start", QString::number(q.fromS, 'f', 3));
    params.addQueryItem("end", QString::number(q.toS, 'f', 3));
    params.addQueryItem("step", QString::number(q.stepS, 'g', 10)); // seconds, as Prometheus reads a bare number
    url.setQuery(params);
    const QString where = mBase.toString(QUrl::RemoveUserInfo | QUrl::StripTrailingSlash) + "/api/v1/query_range";

    QNetworkAccessManager nam;
    QNetworkRequest request(url);
    request.setTransferTimeout(mTimeoutMs);
    request.setRawHeader("Accept", "application/json");
    QNetworkReply* reply = nam.get(request);
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    bool timedOut = false;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&deadline, &QTimer::timeout, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    deadline.start(mTimeoutMs);
    // The caller's Cancel: looked at while waiting, so a slow server never holds a stopped caller.
    QTimer watch;
    bool cancelled = false;
    if (mStop) {
        QObject::connect(&watch, &QTimer::timeout, &loop, [&] {
            if (mStop->load()) {
                cancelled = true;
                reply->abort();
            }
        });
        watch.start(50);
    }
    if (mStop && mStop->load())
        cancelled = true;
    else if (!reply->isFinished())
        loop.exec();
    deadline.stop();
    watch.stop();
    if (cancelled) {
        reply->abort();
        reply->deleteLater();
        return failed(FetchFailure::Cancelled, where, q.promql, "cancelled");
    }
    const QByteArray body = timedOut ? QByteArray() : reply->readAll();
    const QNetworkReply::NetworkError e = reply->error();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString why = reply->errorString();
    reply->deleteLater();

    if (timedOut || e == QNetworkReply::TimeoutError || (e == QNetworkReply::OperationCanceledError && status == 0))
        return failed(FetchFailure::Timeout, where, q.promql,
                      QString("no answer within %1 s (--timeout)").arg(mTimeoutMs / 1000.0, 0, 'g', 4));
    if (status == 0 && e != QNetworkReply::NoError)
        return failed(FetchFailure::Unreachable, where, q.promql, "cannot reach the server: " + why);
    // Prometheus answers a refused query with 400/422/503 and its JSON error: that says more.
    RangeAnswer parsed = parseRangeAnswer(body, where, q.promql);
    if (status >= 400) {
        if (parsed.error && parsed.error->kind == FetchFailure::QueryError) {
            parsed.error->message = QString("HTTP %1: %2").arg(status).arg(parsed.error->message);
            return parsed;
        }
        return failed(FetchFailure::HttpError, where, q.promql,
                      QString("HTTP %1: %2").arg(status).arg(QString::fromUtf8(body.left(300)).trimmed()));
    }
    return parsed;
}

} // namespace gp::telemetry
