package cli

import (
	"fmt"
	"io"

	"github.com/rs/zerolog"

	"github.com/rypsok/rypsok/front/app"
	"github.com/rypsok/rypsok/front/config"
	"github.com/rypsok/rypsok/front/launcher"
	"github.com/rypsok/rypsok/front/telemetry"
)

// runtime is what serve and call share: the configuration, the logger,
// the egress (started here in local mode) and the services.
type runtime struct {
	cfg      config.Config
	log      zerolog.Logger
	egress   *launcher.Egress // nil in sidecar mode
	socket   string
	services *app.Services
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

// start loads the configuration and brings up the egress and services.
// The egress is started, not awaited: calls wait for its readiness.
func start(flagPath string, stderr io.Writer, env Env) (*runtime, error) {
	cfg, _, err := loadConfig(flagPath, env)
	if err != nil {
		return nil, err
	}
	log := zerolog.New(stderr).Level(cfg.LogLevel).With().Timestamp().Str("service", "rypsok").Logger()
	if cfg.LogLevel <= zerolog.DebugLevel {
		log.Warn().Str("event", "debug_logging").Msg("debug logging is on: provider error bodies may be logged (200 characters at most); never use it in production")
	}
	for _, e := range cfg.Engines {
		if e.State == config.EngineNoCredential {
			log.Info().Str("event", "engine_inactive").Str("engine", e.ID).Str("reason", "no_credential").Send()
		}
	}
	r := &runtime{cfg: cfg, log: log, socket: cfg.Egress.Socket}
	if r.socket == "" {
		r.egress, err = launcher.Start(launcher.Options{
			Config: cfg.EgressTOML,
			Stderr: stderr,
			Log:    log,
		})
		if err != nil {
			return nil, fmt.Errorf("starting rypsok-egress: %w", err)
		}
		r.socket = r.egress.Socket()
	}
	r.services = app.New(app.Options{Config: cfg, Log: log, Metrics: telemetry.New()})
	return r, nil
}

// close waits for the calls' work and stops the egress rypsok started.
func (r *runtime) close() {
	r.services.Wait()
	if r.egress != nil {
		r.egress.Close()
	}
}
