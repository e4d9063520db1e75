// An SMTP server inside the test process: the Go server sends its OTP mails here (SMTP_URL).
import { SMTPServer } from 'smtp-server'
import { simpleParser } from 'mailparser'

export async function startSmtp() {
  const mails = []
  const waiters = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(_auth, _session, cb) {
      cb(null, { user: 'e2e' })
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((mail) => {
          const entry = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: mail.subject ?? '',
            text: `${mail.text ?? ''}\n${typeof mail.html === 'string' ? mail.html.replace(/<[^>]+>/g, ' ') : ''}`,
          }
          mails.push(entry)
          for (const w of [...waiters]) w()
          cb()
        })
        .catch(cb)
    },
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const port = server.server.address().port

  /** Waits for the first mail after `since` mails that `match` accepts (mails go out after the answer). */
  async function mailWhere(match, { since = 0, timeoutMs = 20_000, what = 'the mail' } = {}) {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const mail = mails.slice(since).find(match)
      if (mail) return mail
      if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`)
      await new Promise((resolve) => {
        const t = setTimeout(resolve, 250)
        waiters.push(() => {
          clearTimeout(t)
          resolve()
        })
      })
      waiters.length = 0
    }
  }

  /** Waits for the next mail to `to` after `since` mails and returns the 6-digit code in it. */
  async function otpFor(to, { since = 0, timeoutMs = 20_000 } = {}) {
    const mail = await mailWhere((m) => m.to.includes(to.toLowerCase()), { since, timeoutMs, what: `mail to ${to}` })
    const m = mail.text.match(/\b(\d{6})\b/)
    if (!m) throw new Error(`no 6-digit code in the mail to ${to}: ${mail.subject}`)
    return m[1]
  }

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    mailWhere,
    otpFor,
    close: () => new Promise((r) => server.close(r)),
  }
}
