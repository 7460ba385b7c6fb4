// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The gpuplan developers
#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>

#include <atomic>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gp::telemetry {

/// One point of a series: Unix time in seconds and the value.
struct Sample
{
    double timeS = 0.0;
    double value = 0.0;
};

/// One series of a range query: its labels (the metric name under "__name__") and its points.
struct Series
{
    std::map<std::string, std::string> labels;
    std::vector<Sample> samples;
};

/// Why a query got no answer, each a different thing for the user to do.
enum class FetchFailure
{
    BadUrl,      ///< not an http(s) address
    Unreachable, ///< refused, no such host, network down
    Timeout,     ///< no complete answer within the timeout
    HttpError,   ///< an HTTP error status without a Prometheus error body
    QueryError,  ///< Prometheus refused the query (status "error": bad PromQL, bad range, too many points)
    BadAnswer,   ///< an answer that is not Prometheus's JSON for a range query
    Cancelled    ///< the caller's stop flag was set while waiting (a workbench's Cancel)
};

struct FetchError
{
    FetchFailure kind = FetchFailure::BadAnswer;
    QString url;     ///< the address asked (with the query)
    QString query;   ///< the PromQL
    QString message; ///< what went wrong, in words
    /// "URL: message (query: PROMQL)": what a user sees.
    QString text() const;
};

struct RangeQuery
{
    QString promql;
    double fromS = 0.0; ///< Unix seconds
    double toS = 0.0;
    double stepS = 60.0;
};

struct RangeAnswer
{
    std::vector<Series> series;
    std::optional<FetchError> error;
    bool ok() const { return !error.has_value(); }
};

/// Prometheus's HTTP API (https://prometheus.io/docs/prometheus/latest/querying/api/): range
/// queries through QNetworkAccessManager, each bounded by `timeoutMs` in all (connect, wait and
/// transfer), answered with series or a FetchError naming the address, the query and why. It
/// runs a local event loop, so it needs a QCoreApplication, and blocks the calling thread: call
/// it off the GUI thread. With `stop`, a query still waiting gives up within 50 ms of it being set
/// (FetchFailure::Cancelled).
class PrometheusClient
{
public:
    PrometheusClient(QUrl base, int timeoutMs, const std::atomic<bool>* stop = nullptr);
    RangeAnswer queryRange(const RangeQuery& query) const;
    const QUrl& base() const { return mBase; }

private:
    QUrl mBase;
    int mTimeoutMs;
    const std::atomic<bool>* mStop;
};

/// The body of a /api/v1/query_range answer as series (values that are not finite numbers,
/// such as "NaN", are left out); the error names `url` and `query`. Public for the tests.
RangeAnswer parseRangeAnswer(const QByteArray& body, const QString& url, const QString& query);

} // namespace gp::telemetry
