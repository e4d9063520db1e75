// The team and match rooms (internal/chat); the captains room is room.go.

package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/pitlane/pitlane/internal/ratelimit"
)

func (s *Server) roomRoutes() chi.Router {
	r := chi.NewRouter()
	r.Use(requireUser)
	r.Get("/", s.listRooms)
	r.Get("/{id}/messages", s.roomMessages)
	write := r.With(s.perUser(ratelimit.ChatUser))
	write.Post("/{id}/messages", s.postRoomMessage)
	write.Patch("/{id}/messages/{mid}", s.editRoomMessage)
	write.Delete("/{id}/messages/{mid}", s.deleteRoomMessage)
	write.Put("/{id}/slow-mode", s.setSlowMode)
	return r
}

func (s *Server) listRooms(w http.ResponseWriter, r *http.Request) {
	rooms, err := s.Chat.Rooms(r.Context(), actorOf(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"rooms": rooms})
}

func (s *Server) roomMessages(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Room")
	if err != nil {
		writeError(w, r, err)
		return
	}
	p, err := s.Chat.History(r.Context(), actorOf(r), id, r.URL.Query().Get("cursor"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// roomAndMessage reads the {id} and {mid} of a message's path.
func roomAndMessage(r *http.Request) (id, mid int64, err error) {
	if id, err = pathID(r, "id", "Room"); err == nil {
		mid, err = pathID(r, "mid", "Message")
	}
	return id, mid, err
}

func (s *Server) postRoomMessage(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Room")
	var in messageInput
	if err == nil {
		err = decode(w, r, &in)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	m, err := s.Chat.Post(r.Context(), actorOf(r), id, in.Text)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"message": m})
}

func (s *Server) editRoomMessage(w http.ResponseWriter, r *http.Request) {
	id, mid, err := roomAndMessage(r)
	var in messageInput
	if err == nil {
		err = decode(w, r, &in)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	m, err := s.Chat.Edit(r.Context(), actorOf(r), id, mid, in.Text)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"message": m})
}

func (s *Server) deleteRoomMessage(w http.ResponseWriter, r *http.Request) {
	id, mid, err := roomAndMessage(r)
	if err == nil {
		err = s.Chat.Delete(r.Context(), actorOf(r), id, mid)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": mid})
}

func (s *Server) setSlowMode(w http.ResponseWriter, r *http.Request) {
	id, err := pathID(r, "id", "Room")
	var in struct {
		Seconds int `json:"seconds"`
	}
	if err == nil {
		err = decode(w, r, &in)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	room, err := s.Chat.SetSlowMode(r.Context(), actorOf(r), id, in.Seconds)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"room": room})
}
