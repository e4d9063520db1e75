package core

import (
	"strconv"
	"strings"
)

// roomPrefix starts the topic of a team or match room (internal/chat).
const roomPrefix = "room:"

// RoomTopic is the topic of room id. Only its members may follow it: the
// rule that a caller is signed in is here (MayFollow), whether they are a
// member is the room's store's to say (the hub's Guard).
func RoomTopic(id int64) string { return roomPrefix + strconv.FormatInt(id, 10) }

// RoomOfTopic is the room whose topic topic is, or 0.
func RoomOfTopic(topic string) int64 {
	id, ok := strings.CutPrefix(topic, roomPrefix)
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 || RoomTopic(n) != topic {
		return 0
	}
	return n
}
