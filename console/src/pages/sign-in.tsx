import { useState } from 'preact/hooks';
import { api, ApiFailure, call } from '../api.js';
import { ErrorNotice } from '../components/common.js';
import { signIn } from '../session.js';

/**
 * The admin key, typed (or pasted) by the person, checked against the admin API
 * before it is kept: a key without the admin scope is told so plainly.
 */
export function SignInPage() {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call(api.GET('/admin/plans', { headers: { 'X-API-Key': key.trim() } }));
      signIn(key.trim());
    } catch (failure) {
      setError(
        failure instanceof ApiFailure && failure.status === 401
          ? new ApiFailure(401, failure.code, `${failure.message} Check the key and try again.`)
          : failure,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="sign-in panel">
      <h1 tabIndex={-1}>Petstore admin console</h1>
      <p>
        Sign in with an API key that has the <strong>admin</strong> scope. The key stays in this tab only (session
        storage) and is sent with each request in the <code>X-API-Key</code> header; signing out forgets it.
      </p>
      <form onSubmit={(event) => void submit(event)}>
        <label for="admin-key">Admin API key</label>
        <input
          id="admin-key"
          name="admin-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          value={key}
          onInput={(event) => setKey(event.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <ErrorNotice error={error} />
    </div>
  );
}
