package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/app"
	"github.com/rypsok/rypsok/front/cache"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/engine"
	"github.com/rypsok/rypsok/front/engine/drivers"
	"github.com/rypsok/rypsok/front/fetch"
	"github.com/rypsok/rypsok/front/health"
	"github.com/rypsok/rypsok/front/launcher"
	"github.com/rypsok/rypsok/front/outbound"
	"github.com/rypsok/rypsok/front/pacing"
	"github.com/rypsok/rypsok/front/response"
	"github.com/rypsok/rypsok/front/search"
	"github.com/rypsok/rypsok/front/sharedstate"
	"github.com/rypsok/rypsok/front/telemetry"
	"github.com/rypsok/rypsok/shared/contract"
	"github.com/rypsok/rypsok/shared/limits"
)

// instance is what serve and call share: the configuration, the logger,
// the egress (started by rypsok in local mode) and the services.
type instance struct {
	cfg      config.Config
	log      zerolog.Logger
	local    *localEgress // nil in sidecar mode
	metrics  *telemetry.Metrics
	health   *health.Tracker
	socket   string // the sidecar's socket
	services *app.Services
	shared   *sharedstate.Store // nil without [shared_state]
}

// loadConfig locates and loads the configuration; no file means defaults.
func loadConfig(flagPath string, env Env) (config.Config, string, error) {
	path, ok := config.Locate(flagPath, env)
	if !ok {
		return config.Default(env), "", nil
	}
	c, err := config.Load(path, env)
	return c, path, err
}

// start loads the configuration and brings up the services; the egress
// rypsok runs itself is prepared, and started by startEgress or by the
// first call that needs it; calls wait for its readiness.
// In HTTP mode with several callers, one caller may hold only its share
// (config.HTTP.CallerShare) of the process's LIM-C8 fetches, so that it
// cannot starve the others. person says a person runs the command (call):
// at a terminal, it logs in the human form (outputFor).
func start(flagPath string, st Streams, env Env, http, person bool) (*instance, error) {
	cfg, _, err := loadConfig(flagPath, env)
	if err != nil {
		return nil, err
	}
	out := outputFor(st, env, cfg.LogLevel, person)
	log := out.logger()
	if cfg.LogLevel <= zerolog.DebugLevel {
		log.Warn().Str("event", "debug_logging").Msg("debug logging is on: provider error bodies may be logged (200 characters at most); never use it in production")
	}
	for _, e := range cfg.Engines {
		if e.State == config.EngineNoCredential {
			log.Info().Str("event", "engine_inactive").Str("engine", e.ID).Str("reason", "no_credential").Send()
		}
	}
	r := &instance{cfg: cfg, log: log, socket: cfg.Egress.Socket}
	if r.socket == "" {
		bin, err := launcher.ResolveBinary("")
		if err != nil {
			return nil, fmt.Errorf("starting rypsok-egress: %w", err)
		}
		r.local = newLocal(launcher.Options{Binary: bin, Config: cfg.EgressTOML, Stderr: out.egress, Log: log})
	}
	r.metrics = telemetry.New()
	r.health = health.New(health.Options{OnTransition: func(engine string, from, to response.EngineState) {
		r.metrics.Transition(engine, string(from), string(to))
		log.Info().Str("event", "breaker").Str("engine", engine).Str("from", string(from)).Str("to", string(to)).Send()
	}})
	if cfg.SharedState.Enabled() {
		// Open probes Redis once, within LIM-R1; a Redis down at start
		// leaves the replica on in-process state until it answers.
		r.shared, err = sharedstate.Open(context.Background(), sharedstate.Options{
			URL: cfg.SharedState.URL, Password: cfg.SharedState.Password, Prefix: cfg.SharedState.Prefix,
			Log: log, OnState: r.metrics.SharedStateUp,
		})
		if err != nil {
			r.close()
			return nil, fmt.Errorf("shared_state: %w", err)
		}
	}
	var registry *fetch.Registry
	if cfg.Fetch.StrictMode {
		registry = fetch.NewRegistry()
	}
	pipeline, err := r.pipeline(registry)
	if err != nil {
		r.close()
		return nil, err
	}
	fetcher := fetch.New(fetch.Options{
		Config:    cfg,
		Egress:    r.outbound(),
		Strict:    registry,
		UserAgent: userAgent(cfg.Service.Contact),
		Log:       log,
	})
	share := 0
	if http {
		share = cfg.Service.HTTP.CallerShare(limits.C8FetchInFlight)
	}
	o := app.Options{Config: cfg, Log: log, Metrics: r.metrics, Search: pipeline, Fetch: fetcher, Health: r.health, FetchShare: share}
	if r.shared != nil {
		o.Shared = r.shared
	}
	r.services = app.New(o)
	return r, nil
}

// projectURL is the project's address in rypsok's User-Agent.
const projectURL = "https://github.com/rypsok/rypsok"

// userAgent is rypsok's User-Agent (docs/design: engines and
// compliance): rypsok/<version> (+<project
// URL>; <operator contact>).
func userAgent(contact string) string {
	if contact == "" {
		return fmt.Sprintf("rypsok/%s (+%s)", Version(), projectURL)
	}
	return fmt.Sprintf("rypsok/%s (+%s; %s)", Version(), projectURL, contact)
}

// pipeline builds the search pipeline: one driver per active engine, each
// reaching its provider only through the egress, engine profile, and
// paced at its configured rate and burst (across the replicas when they
// share state).
func (r *instance) pipeline(registry *fetch.Registry) (*search.Pipeline, error) {
	out := r.outbound()
	var engines []*search.Engine
	rates := map[string]pacing.Rate{}
	for _, e := range r.cfg.Engines {
		if e.State != config.EngineActive {
			continue
		}
		d, err := drivers.New(e.Type, engine.Config{
			ID:         e.ID,
			Endpoint:   e.EndpointURL(),
			Credential: e.Credential,
			UserAgent:  userAgent(r.cfg.Service.Contact),
			Languages:  r.cfg.Search.Languages,
		})
		if err != nil {
			return nil, fmt.Errorf("engines.%s: %w", e.ID, err)
		}
		client := out.Client(contract.ProfileEngine, e.ID, d.Properties().MaxBodyBytes)
		engines = append(engines, search.NewEngine(e.ID, e.Categories, e.Weight, d, client))
		rates[e.ID] = pacing.Rate{PerSecond: e.RatePerSecond, Burst: e.Burst}
	}
	var pacer search.Pacer = pacing.NewLocal(rates)
	if r.shared != nil {
		// All the replicas sharing the store keep each provider's pace
		// together; this process's own pace while the store is down.
		pacer = pacing.NewShared(r.shared, rates)
	}
	var c cache.Store
	switch {
	case r.cfg.Cache.Enabled && r.shared != nil:
		c = cache.NewShared(r.shared, cache.Options{TTL: r.cfg.Cache.TTL})
	case r.cfg.Cache.Enabled:
		c = cache.New(cache.Options{TTL: r.cfg.Cache.TTL})
	}
	return search.New(search.Options{
		Cache:               c,
		Engines:             engines,
		Pacer:               pacer,
		Secrets:             r.cfg.Privacy.SecretDetection,
		DropInstructionLike: r.cfg.Search.DropInstructionLike,
		Region:              r.cfg.Search.Region,
		SafeSearch:          string(r.cfg.Search.SafeSearch),
		Deadline:            r.cfg.Search.Deadline,
		Log:                 r.log,
		Health:              r.health,
		Metrics:             r.metrics,
		Returned:            returned(registry),
	}), nil
}

// returned is what search tells strict mode's registry, nil when off.
func returned(registry *fetch.Registry) func(string) {
	if registry == nil {
		return nil
	}
	return registry.Add
}

// outbound is the front's way out: the egress it started or the sidecar.
func (r *instance) outbound() outbound.Egress {
	out := outbound.Egress{Socket: r.socket}
	if r.local != nil {
		out.Ready = r.local.ready
	}
	return out
}

// close waits for the calls' work and stops the egress rypsok started.
func (r *instance) close() {
	if r.services != nil {
		r.services.Wait()
	}
	if r.shared != nil {
		r.shared.Close()
	}
	if r.local != nil {
		r.local.close()
	}
}

// startEgress starts the egress rypsok runs itself (none with a sidecar
// socket), once. A call that needs it starts it too.
func (r *instance) startEgress() {
	if r.local != nil {
		r.local.start()
	}
}

// localEgress is the egress rypsok starts itself. serve over stdio starts
// it once its first answer (to initialize) is written, so that the two
// processes do not share the cores while that answer is made (cold
// start); it starts in the background, and calls wait for it within their
// own deadline.
type localEgress struct {
	opts   launcher.Options
	once   sync.Once     // start or close, whichever comes first
	done   chan struct{} // closed once Start returned, or at close if never started
	egress *launcher.Egress
	err    error
}

// errClosed is the error of calls after close when the egress never started.
var errClosed = errors.New("rypsok-egress: not started, rypsok is stopping")

func newLocal(o launcher.Options) *localEgress {
	return &localEgress{opts: o, done: make(chan struct{})}
}

// start starts the egress in the background, once.
func (l *localEgress) start() {
	l.once.Do(func() {
		go func() {
			defer close(l.done)
			l.egress, l.err = launcher.Start(l.opts)
			if l.err != nil {
				l.opts.Log.Error().Str("event", "egress_failed").Err(l.err).Send()
			}
		}()
	})
}

// ready starts the egress if no one has, waits until it answers and
// returns its socket.
func (l *localEgress) ready(ctx context.Context) (string, error) {
	l.start()
	select {
	case <-l.done:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if l.err != nil {
		return "", l.err
	}
	if err := l.egress.WaitReady(ctx); err != nil {
		return "", err
	}
	return l.egress.Socket(), nil
}

// close stops the egress, waiting for a start in progress; an egress not
// started by then never starts.
func (l *localEgress) close() {
	l.once.Do(func() {
		l.err = errClosed
		close(l.done)
	})
	<-l.done
	if l.egress != nil {
		l.egress.Close()
	}
}
