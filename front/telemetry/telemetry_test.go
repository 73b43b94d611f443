package telemetry

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

func TestSharedStateGauge(t *testing.T) {
	m := New()
	if strings.Contains(scrape(t, m), "rypsok_shared_state_up") {
		t.Error("the gauge is shown without shared state")
	}
	for _, tt := range []struct {
		up   bool
		want string
	}{
		{true, "rypsok_shared_state_up 1\n"},
		{false, "rypsok_shared_state_up 0\n"},
		{true, "rypsok_shared_state_up 1\n"},
	} {
		m.SharedStateUp(tt.up)
		if got := scrape(t, m); !strings.Contains(got, tt.want) {
			t.Errorf("up %t: want %q in\n%s", tt.up, tt.want, got)
		}
	}
	var none *Metrics
	none.SharedStateUp(true) // counts nothing, and does not panic
}
