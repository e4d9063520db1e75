// Package hub holds Pitlane's live layer: the websocket endpoint GET /api/ws
// (its protocol is described in docs/hub.md), per-topic sequence numbers and
// history, and the fan-out of events across instances through a Broker
// (Redis, or in-process for one instance). It delivers the events the
// outbox relay hands it (core.Broadcaster) and lets code in the process
// follow topics (core.Feed).
package hub
