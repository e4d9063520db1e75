// The stats upload: an image-only picker (click or drag), a preview with remove, and the
// UPLOAD STATS button.
import { useEffect, useId, useRef, useState, type DragEvent } from 'react'
import { Message } from '@/components/ui/popup'

export const NOT_AN_IMAGE = 'Please choose an image file (PNG, JPG or WebP).'

export function isImageFile(f: File | null | undefined): f is File {
  return !!f && f.type.startsWith('image/')
}

type Props = {
  file: File | null
  onFile: (f: File | null) => void
  onUpload: () => void
  busy: boolean
}

export function StatsPicker({ file, onFile, onUpload, busy }: Props) {
  const inputId = useId()
  const inputRef = useRef<HTMLInputElement>(null)
  const [drag, setDrag] = useState(false)
  const [error, setError] = useState('')

  function take(f: File | null | undefined) {
    setError('')
    if (!f) return
    if (!isImageFile(f)) {
      setError(NOT_AN_IMAGE)
      return
    }
    onFile(f)
  }

  function onDrop(e: DragEvent) {
    e.preventDefault()
    setDrag(false)
    take(e.dataTransfer.files?.[0])
  }

  return (
    <div className="stats-picker">
      {!file ? (
        <div
          className={`dropzone ${drag ? 'is-drag' : ''}`}
          onDragOver={(e) => {
            e.preventDefault()
            setDrag(true)
          }}
          onDragLeave={() => setDrag(false)}
          onDrop={onDrop}
          data-testid="dropzone"
        >
          <svg className="dropzone-icon" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M12 3l5 5h-3v6h-4V8H7l5-5zm-8 14h16v4H4v-4z" fill="currentColor" />
          </svg>
          <label htmlFor={inputId} className="dropzone-label">
            <strong>Choose your SK stats screenshot</strong>
            <span>or drag and drop it here (images only)</span>
          </label>
          <input
            ref={inputRef}
            id={inputId}
            className="file-input"
            type="file"
            accept="image/*"
            onChange={(e) => {
              take(e.target.files?.[0])
              e.target.value = ''
            }}
          />
        </div>
      ) : (
        <figure className="preview">
          <PreviewImage file={file} />
          <figcaption>
            <span className="preview-name">{file.name}</span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => onFile(null)} disabled={busy}>
              Remove
            </button>
          </figcaption>
        </figure>
      )}
      <Message kind="error">{error}</Message>
      <button type="button" className="btn btn-primary btn-block" onClick={onUpload} disabled={!file || busy}>
        {busy ? 'UPLOADING…' : 'UPLOAD STATS'}
      </button>
    </div>
  )
}

/** The chosen file shown through an object URL that lives as long as the file is shown. */
function PreviewImage({ file }: { file: File }) {
  const img = useRef<HTMLImageElement>(null)
  useEffect(() => {
    const url = URL.createObjectURL(file)
    if (img.current) img.current.src = url
    return () => URL.revokeObjectURL(url)
  }, [file])
  return <img ref={img} alt="Preview of the chosen stats screenshot" />
}
