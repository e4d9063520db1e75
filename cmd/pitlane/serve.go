package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/pitlane/pitlane/internal/app"
	"github.com/pitlane/pitlane/internal/config"
	"github.com/pitlane/pitlane/web"
)

func serve(ctx context.Context, getenv func(string) string, stderr io.Writer) error {
	cfg, err := config.FromEnv(getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(log)
	if !cfg.Production() {
		if err := cfg.EnsureSecret(); err != nil {
			return fmt.Errorf("making a development JWT secret: %w", err)
		}
	}
	log.Info("starting", slog.Any("config", cfg.Redacted()))

	db, err := openDB(ctx, cfg.DatabaseURL, log)
	if err != nil {
		return err
	}
	defer db.Close()
	applied, err := db.Migrate(ctx)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		log.Info("migrated", slog.Any("applied", applied))
	}

	a, err := app.New(ctx, cfg, db, web.Dist(), log)
	if err != nil {
		return err
	}
	defer a.Close()
	a.StartRecorder(ctx)
	if cfg.DiscordBotToken != "" {
		// One instance's bot answers at a time; the others stand by.
		a.StartBot(ctx)
	}

	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           a.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	log.Info("listening", slog.String("addr", ln.Addr().String()))
	errc := make(chan error, 2)
	go func() { errc <- srv.Serve(ln) }()
	var metrics *http.Server
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			return fmt.Errorf("METRICS_ADDR: %w", err)
		}
		metrics = &http.Server{Handler: a.Metrics, ReadHeaderTimeout: 10 * time.Second}
		log.Info("metrics listening", slog.String("addr", mln.Addr().String()))
		go func() { errc <- metrics.Serve(mln) }()
	}

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("http shutdown", slog.Any("err", err))
	}
	if metrics != nil {
		_ = metrics.Shutdown(sctx)
	}
	// Websockets are hijacked connections that http.Server.Shutdown does not
	// see: the hub closes them with 1001.
	if err := a.Hub.Shutdown(sctx); err != nil {
		log.Warn("hub shutdown", slog.Any("err", err))
	}
	log.Info("stopped")
	return nil
}
