import type { ReactNode } from 'react'

type Props = {
  /** The small line above the title: the section or season the page belongs to. */
  kicker: ReactNode
  title: ReactNode
  /** A line under the title (counts, the phase), given whole with its own paragraph. */
  meta?: ReactNode
  /** The page's buttons and pickers, beside the title. */
  children?: ReactNode
}

/** The head every page of the league opens with: kicker, title, a line of facts, actions. */
export function PageHead({ kicker, title, meta, children }: Props) {
  return (
    <header className="page-head">
      <div>
        <p className="hero-kicker">{kicker}</p>
        <h1>{title}</h1>
        {meta}
      </div>
      {children}
    </header>
  )
}
