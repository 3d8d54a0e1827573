/** The settings forms' Save row: disabled, saying so, while the save is on its way. */
export function SaveActions({ pending }: { readonly pending: boolean }) {
  return (
    <div className="settings__actions">
      <button type="submit" className="button button--primary" disabled={pending}>
        {pending ? 'Saving…' : 'Save'}
      </button>
    </div>
  );
}
