package core

// Tier bands: a player's tier (the card's "category"), 1 the strongest,
// from their K/D and how many games back it. The league shows these bands
// on the site; an organiser may set another tier for one tournament.
var TierBands = []struct {
	Tier     int
	MinKD    float64
	MinGames int
}{
	{1, 2.5, 500},
	{2, 1.8, 200},
	{3, 1.2, 50},
}

// Tiers counts the tiers; whoever meets no band is in the last.
const Tiers = 4

// TierOf is the tier the bands give stats.
func TierOf(s Stats) int {
	for _, b := range TierBands {
		if s.KD >= b.MinKD && s.GamesPlayed >= b.MinGames {
			return b.Tier
		}
	}
	return Tiers
}
