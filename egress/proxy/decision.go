package proxy

import (
	"time"

	"github.com/rypsok/rypsok/egress/telemetry"
	"github.com/rypsok/rypsok/shared/contract"
)

// Field names of the decision line, one per request.
const (
	fieldEvent    = "event"
	fieldProfile  = "profile"
	fieldEngine   = "engine"
	fieldHost     = "host"
	fieldDecision = "decision"
	fieldReason   = "reason"
	fieldRange    = "range"
	fieldStatus   = "status"
	fieldBytes    = "bytes"
	fieldEnd      = "end"
	fieldLatency  = "latency_ms"
	fieldCause    = "cause"
)

// decision says how x ended, for the log and the counters.
func (x *exchange) decision() telemetry.Decision {
	switch {
	case !x.refused:
		return telemetry.DecisionAllow
	case x.reason.Policy() || x.rng != "":
		return telemetry.DecisionRefuse
	}
	return telemetry.DecisionFail
}

// finish writes x's decision line and counts it. It never writes a path,
// a query or a header value. The host appears only once the policy
// admitted the request: on an allow line, and on a fail line with the
// cause (dialer.Cause) of the failure upstream; never on a refusal.
func (p *Proxy) finish(x *exchange) {
	x.cancel()
	d := x.decision()
	e := p.opts.Log.Info().Str(fieldEvent, "egress").
		Str(fieldProfile, string(x.profile)).
		Str(fieldDecision, string(d))
	if x.engine != "" {
		e = e.Str(fieldEngine, x.engine)
	}
	if d == telemetry.DecisionAllow {
		e = e.Str(fieldHost, x.host).Int(fieldStatus, x.status).Int64(fieldBytes, x.bytes).Str(fieldEnd, endOrAborted(x.end))
	} else {
		e = e.Str(fieldReason, string(x.reason))
		if x.rng != "" {
			e = e.Str(fieldRange, string(x.rng))
		}
		if d == telemetry.DecisionFail && x.cause != "" {
			e = e.Str(fieldHost, x.host).Str(fieldCause, string(x.cause))
		}
	}
	e.Int64(fieldLatency, time.Since(x.start).Milliseconds()).Send()
	p.opts.Metrics.Request(string(x.profile), d, string(x.reason), x.bytes, string(x.end))
}

func endOrAborted(e contract.End) string {
	if e == "" {
		return "aborted"
	}
	return string(e)
}
