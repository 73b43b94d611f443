// Package telemetry holds the front's counters (REQ-OBS-007): calls by
// tool and outcome, refused calls by tool, error kind and reason. They
// live in their own registry, served only when the operator asks
// (issue 5's [telemetry] metrics_listen); health state is process state.
package telemetry

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the front's counters. A nil *Metrics counts nothing.
type Metrics struct {
	reg         *prometheus.Registry
	calls       *prometheus.CounterVec
	refused     *prometheus.CounterVec
	engine      *prometheus.CounterVec
	transitions *prometheus.CounterVec
	http        *prometheus.CounterVec
	shared      prometheus.Gauge
	sharedOnce  sync.Once
}

// New returns fresh counters in their own registry.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_calls_total",
			Help: "Tool calls answered with an outcome, by tool and outcome.",
		}, []string{"tool", "outcome"}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_refused_calls_total",
			Help: "Tool calls answered with an error, by tool, error kind and reason.",
		}, []string{"tool", "kind", "reason"}),
		engine: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_engine_requests_total",
			Help: "Engine requests by engine and result: ok or the engine error class.",
		}, []string{"engine", "result"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_breaker_transitions_total",
			Help: "Circuit breaker transitions by engine and the states left and entered.",
		}, []string{"engine", "from", "to"}),
		http: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rypsok_http_refusals_total",
			Help: "Requests and connections the HTTP listener refused, by reason (docs/operations.md, serving over HTTP).",
		}, []string{"reason"}),
		shared: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "rypsok_shared_state_up",
			Help: "1 while the replicas share their state in Redis, 0 while this one falls back to in-process state (docs/replicas.md); absent without [shared_state].",
		}),
	}
	m.reg.MustRegister(m.calls, m.refused, m.engine, m.transitions, m.http,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Answered counts a call that ended with outcome.
func (m *Metrics) Answered(tool, outcome string) {
	if m != nil {
		m.calls.WithLabelValues(tool, outcome).Inc()
	}
}

// Refused counts a call that ended with a tool error.
func (m *Metrics) Refused(tool, kind, reason string) {
	if m != nil {
		m.refused.WithLabelValues(tool, kind, reason).Inc()
	}
}

// EngineRequest counts one engine request: result is "ok" or its class.
func (m *Metrics) EngineRequest(engine, result string) {
	if m != nil {
		m.engine.WithLabelValues(engine, result).Inc()
	}
}

// Transition counts a circuit breaker's change of state.
func (m *Metrics) Transition(engine, from, to string) {
	if m != nil {
		m.transitions.WithLabelValues(engine, from, to).Inc()
	}
}

// HTTPRefused counts a request or connection the HTTP listener refused.
func (m *Metrics) HTTPRefused(reason string) {
	if m != nil {
		m.http.WithLabelValues(reason).Inc()
	}
}

// SharedStateUp sets the shared-state gauge: whether Redis is in use. The
// gauge is registered on its first call, so that a front without
// [shared_state] does not show it.
func (m *Metrics) SharedStateUp(up bool) {
	if m == nil {
		return
	}
	m.sharedOnce.Do(func() { m.reg.MustRegister(m.shared) })
	if up {
		m.shared.Set(1)
	} else {
		m.shared.Set(0)
	}
}

// HTTPRefusedCount reports the count of HTTP refusals for reason.
func (m *Metrics) HTTPRefusedCount(reason string) float64 {
	if m == nil {
		return 0
	}
	c, err := m.http.GetMetricWithLabelValues(reason)
	if err != nil {
		return 0
	}
	return readCounter(c)
}

// RefusedCount reports the count of refused calls with these labels.
func (m *Metrics) RefusedCount(tool, kind, reason string) float64 {
	if m == nil {
		return 0
	}
	c, err := m.refused.GetMetricWithLabelValues(tool, kind, reason)
	if err != nil {
		return 0
	}
	return readCounter(c)
}

// Handler serves the counters in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}
