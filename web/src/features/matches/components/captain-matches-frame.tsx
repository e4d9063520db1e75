// The captain's matches' place on the tournament page while the block and its data load (its own
// small file: the block's code loads only for a signed-in visitor).

/** The block's place while it loads, as high as the block with nothing to play: nothing below it moves when it comes. */
export function CaptainMatchesFrame() {
  return (
    <section className="captain-matches is-loading" aria-label="Your matches" aria-busy="true">
      <h2>Your matches</h2>
      <p className="muted">Reading your team’s fixtures…</p>
      <span className="captain-matches-frame-link" aria-hidden="true" />
    </section>
  )
}
