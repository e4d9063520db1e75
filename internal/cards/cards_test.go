package cards_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/pitlane/pitlane/internal/cards"
)

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != cards.Width || img.Bounds().Dy() != cards.Height {
		t.Fatalf("%v", img.Bounds())
	}
	return img
}

func TestAPlayersCardShowsTheKartInItsBox(t *testing.T) {
	kart := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for i := range kart.Pix {
		kart.Pix[i] = 0xff // white
	}
	img := decode(t, cards.DrawPlayer(cards.Player{Name: "TurboKing", Level: 30, Tier: 2, Kills: 500, Deaths: 200, KD: 2.5, Games: 100, Kart: kart}))
	r, g, b, _ := img.At(260, 310).RGBA() // the box's middle
	if r>>8 != 0xff || g>>8 != 0xff || b>>8 != 0xff {
		t.Fatalf("the kart's box at its middle is %v", img.At(260, 310))
	}
	if c := color.RGBAModel.Convert(img.At(10, 5)).(color.RGBA); c.B < 0xc0 {
		t.Fatalf("the top band is %v, not the site's blue", c)
	}
}

func TestCardsWithoutAPicture(t *testing.T) {
	decode(t, cards.DrawPlayer(cards.Player{Name: "Shy", Hidden: true}))
	decode(t, cards.DrawTable(cards.Table{Kicker: "STANDINGS", Title: "PPL7", Rows: []cards.Row{{Name: "Team A", Played: 3, Won: 2, Points: 6}}}))
}

func BenchmarkDrawPlayer(b *testing.B) {
	kart := image.NewRGBA(image.Rect(0, 0, 256, 256))
	for i := 0; i < b.N; i++ {
		cards.DrawPlayer(cards.Player{Name: "TurboKing", Level: 30, Tier: 2, Kills: 500, Deaths: 200, KD: 2.5, Games: 100, Titles: 2, Kart: kart})
	}
}

func BenchmarkDrawStandings(b *testing.B) {
	rows := make([]cards.Row, 8)
	for i := range rows {
		rows[i] = cards.Row{Name: "Team", Played: 7, Won: i, Points: 3 * i}
	}
	for i := 0; i < b.N; i++ {
		cards.DrawTable(cards.Table{Kicker: "STANDINGS", Title: "PPL7", Rows: rows})
	}
}
