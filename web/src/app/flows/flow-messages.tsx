// The register flow's one message line: an error, the clearer-screenshot alert, and a note.
import { useState } from 'react'
import { ErrorMessage } from '@/components/ui/form'
import { Message } from '@/components/ui/popup'

export type FlowMessages = ReturnType<typeof useFlowMessages>

export function useFlowMessages(initialInfo: string) {
  const [error, setError] = useState('')
  const [alert, setAlert] = useState('')
  const [info, setInfo] = useState(initialInfo)
  return {
    error,
    alert,
    info,
    setError,
    setAlert,
    setInfo,
    /** A new step starts: what the last one said goes. */
    clear() {
      setError('')
      setAlert('')
      setInfo('')
    },
  }
}

export function FlowMessageLine({ messages }: { messages: FlowMessages }) {
  return (
    <>
      <ErrorMessage error={messages.error} />
      {messages.alert ? (
        <p className="msg msg-alert" role="alert">
          {messages.alert}
        </p>
      ) : null}
      <Message kind="info">{messages.info}</Message>
    </>
  )
}
