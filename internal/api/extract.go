package api

import (
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/pitlane/pitlane/internal/errs"
	"github.com/pitlane/pitlane/internal/ratelimit"
	"github.com/pitlane/pitlane/internal/upload"
)

// extractStats reads the multipart field "screenshot" (at most 8 MB) and
// hands it to the stats reader; signed-in callers get it saved too.
func (s *Server) extractStats(w http.ResponseWriter, r *http.Request) {
	me, signedIn := currentUser(r.Context())
	if signedIn {
		if s.limited(w, r, ratelimit.ExtractUser, strconv.FormatInt(me.ID, 10)) {
			return
		}
	} else if s.limited(w, r, ratelimit.ExtractIP, limitIP(r)) {
		return
	}
	data, err := readScreenshot(w, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	got, err := s.Uploads.Read(r.Context(), actorOf(r), data)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"success": true, "stats": got.Stats, "saved": got.Saved})
}

// readScreenshot streams the multipart body and keeps only the screenshot
// part, refusing more than MaxBytes before it is all read.
func readScreenshot(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	return readImagePart(w, r, "screenshot", "a screenshot")
}

// readImagePart streams the multipart body and keeps only its field part
// (what, "a screenshot", names it in the messages), refusing more than
// MaxBytes before it is all read.
func readImagePart(w http.ResponseWriter, r *http.Request, field, what string) ([]byte, error) {
	r.Body = http.MaxBytesReader(w, r.Body, upload.MaxBytes+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, errs.E(errs.Unsupported, "Send the %s as multipart/form-data in the field %q", field, field)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, errs.E(errs.Invalid, "Please choose %s to upload (field %q)", what, field)
		}
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, errs.E(errs.TooLarge, upload.MsgTooLarge)
		}
		if err != nil {
			return nil, errs.E(errs.Invalid, "The upload is not valid multipart data")
		}
		if part.FormName() != field {
			part.Close()
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, upload.MaxBytes+1))
		if errors.As(err, &maxErr) || len(data) > upload.MaxBytes {
			return nil, errs.E(errs.TooLarge, upload.MsgTooLarge)
		}
		if err != nil {
			return nil, errs.E(errs.Invalid, "The upload was cut off")
		}
		return data, nil
	}
}
