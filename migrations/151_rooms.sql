-- Team rooms (internal/chat): a private room per team per season and a
-- room per match. Who is in a room is read from the teams and matches as
-- they are now (a withdrawn player is out at once); the rooms keep their
-- messages, their slow mode and each member's last read message.
CREATE TABLE chat_rooms (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    team_id       bigint UNIQUE REFERENCES teams(id) ON DELETE CASCADE,
    match_id      bigint UNIQUE REFERENCES matches(id) ON DELETE CASCADE,
    slow_seconds  integer NOT NULL DEFAULT 0 CHECK (slow_seconds BETWEEN 0 AND 3600),
    created_at    timestamptz NOT NULL DEFAULT now(),
    CHECK ((team_id IS NULL) <> (match_id IS NULL))
);
CREATE INDEX chat_rooms_by_tournament ON chat_rooms (tournament_id);

CREATE TABLE chat_messages (
    id         bigserial PRIMARY KEY,
    room_id    bigint NOT NULL REFERENCES chat_rooms(id) ON DELETE CASCADE,
    user_id    bigint REFERENCES users(id) ON DELETE SET NULL,
    author     text NOT NULL,               -- the name shown when it was said
    text       text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now(),
    edited_at  timestamptz,
    deleted_at timestamptz,
    deleted_by bigint REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX chat_messages_by_room ON chat_messages (room_id, id DESC);
CREATE INDEX chat_messages_by_user ON chat_messages (user_id, room_id, id DESC) WHERE user_id IS NOT NULL;

-- The last message each member read in a room: the unread count is what
-- came after it.
CREATE TABLE chat_reads (
    room_id bigint NOT NULL REFERENCES chat_rooms(id) ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    last_id bigint NOT NULL,
    PRIMARY KEY (user_id, room_id)
);
