package app

import (
	"context"

	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/response"
)

// Status reports each configured engine's state (docs/design: tools,
// engine_status). It makes no
// request and reads only process state, so it answers within LIM-S13.
func (s *Services) Status(ctx context.Context) response.Status {
	st := response.Status{Outcome: response.OutcomeOK, Notices: []response.Notice{}, Engines: []response.EngineStatus{}}
	for _, e := range s.cfg.Engines {
		es := response.EngineStatus{ID: e.ID, State: response.StateClosed}
		if s.health != nil && e.State == config.EngineActive {
			state, median, ok := s.health.State(e.ID)
			es.State = state
			if ok {
				ms := median.Milliseconds()
				es.LatencyMs = &ms
			}
		}
		switch e.State {
		case config.EngineDisabled:
			es.State, es.Reason = response.StateDisabled, response.DisabledByOperator
		case config.EngineNoCredential:
			es.State, es.Reason = response.StateDisabled, response.DisabledNoCredential
		}
		st.Engines = append(st.Engines, es)
	}
	return st
}
