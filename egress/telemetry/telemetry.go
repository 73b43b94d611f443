// Package telemetry holds rypsok-egress's counters and serves them in the
// Prometheus text format. It has its own registry: nothing is registered
// globally, and nothing is served unless the operator sets
// [telemetry] metrics_listen.
package telemetry

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Decision is the outcome of one request, as counted and logged.
type Decision string

const (
	// DecisionAllow: the request was forwarded and its answer streamed.
	DecisionAllow Decision = "allow"
	// DecisionRefuse: the policy refused the request, or every address of
	// its name (the caller was told network).
	DecisionRefuse Decision = "refuse"
	// DecisionFail: the request was admitted but could not be completed
	// (network, timeout) or broke the contract.
	DecisionFail Decision = "fail"
)

// Metrics are the egress's counters.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	bytes    *prometheus.CounterVec
	ends     *prometheus.CounterVec
}

// New returns a fresh set of counters in their own registry.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_egress_requests_total",
			Help: "Requests by profile, decision and reason (empty when forwarded).",
		}, []string{"profile", "decision", "reason"}),
		bytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_egress_response_bytes_total",
			Help: "Body bytes streamed to the front, after decompression, by profile.",
		}, []string{"profile"}),
		ends: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_egress_body_ends_total",
			Help: "Forwarded bodies by how they ended: complete, too_large, timeout, network, aborted.",
		}, []string{"profile", "end"}),
	}
	m.reg.MustRegister(m.requests, m.bytes, m.ends)
	return m
}

// Request counts one request.
func (m *Metrics) Request(profile string, d Decision, reason string, bytes int64, end string) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(profile, string(d), reason).Inc()
	if d == DecisionAllow {
		m.bytes.WithLabelValues(profile).Add(float64(bytes))
		if end == "" {
			end = "aborted"
		}
		m.ends.WithLabelValues(profile, end).Inc()
	}
}

// Registerer lets other parts of the egress add their own collectors.
func (m *Metrics) Registerer() prometheus.Registerer { return m.reg }

// Handler serves the counters in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
