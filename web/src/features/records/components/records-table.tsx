import type { ReactNode } from 'react'

/** A table of the records (a player's seasons, a team's roster), scrolling sideways on a phone. */
export function RecordsTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="records-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}
