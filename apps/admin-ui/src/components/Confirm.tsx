import { type ReactNode, useEffect, useRef } from 'react';

/**
 * A modal confirmation (the native <dialog>, so focus is trapped and Escape cancels): nothing
 * destructive happens before its confirm button.
 */
export function Confirm(props: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    // jsdom has no showModal: the dialog is then shown as open.
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      onCancel={(e) => {
        e.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id="confirm-title">{props.title}</h2>
      <div>{props.children}</div>
      <p className="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>{' '}
        <button
          type="button"
          className="danger"
          onClick={props.onConfirm}
          disabled={props.busy}
          autoFocus
        >
          {props.confirmLabel}
        </button>
      </p>
    </dialog>
  );
}
