/**
 * A run opened from a share link (`#run=2.…`): the settings it holds, what differs from its preset,
 * and "Reproduce this run". A damaged, foreign or too-new link gets its own message in an alert and
 * nothing else changes: the form keeps what the person typed, the lab keeps working.
 */
import { defaultRunConfig, type RunConfig } from '../../rl/config';
import { useConfig } from '../state/config';
import { useTraining } from '../state/training';
import { useUi } from '../state/ui';
import { labActions } from './actions';
import { changedFields, FIELDS, formatField } from './fields';

function ConfigTable({ config, keys }: { config: RunConfig; keys: readonly (keyof RunConfig)[] }) {
  const base = defaultRunConfig(config.preset);
  return (
    <table className="config-table">
      <thead>
        <tr>
          <th scope="col">Setting</th>
          <th scope="col">Value</th>
          <th scope="col">Preset default</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => {
          const label = k === 'preset' ? 'Preset' : (FIELDS.find((f) => f.key === k)?.label ?? k);
          return (
            <tr key={k} data-key={k}>
              <th scope="row">
                {label} <code>{k}</code>
              </th>
              <td>{formatField(config[k])}</td>
              <td className="muted">{k === 'preset' ? '' : formatField(base[k])}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function SharedRunPanel() {
  const shared = useUi((s) => s.shared);
  const dismiss = useUi((s) => s.dismissShared);
  if (!shared) return null;
  if (!shared.ok) {
    return (
      <div className="panel notice-panel notice-bad" role="alert" data-testid="share-error">
        <p className="notice-title">This link could not be opened</p>
        <p className="pre-line">{shared.message}</p>
        <p>Your settings below are untouched.</p>
        <button type="button" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  const config = shared.config;
  const users = shared.profiles ?? null;
  const changed = changedFields(config);
  const reproduce = (train: boolean) => {
    useTraining.getState().reset();
    useConfig.getState().load(config);
    useConfig.getState().setStart('shipped');
    // The link's training users, or none: the standard set (a user kept from earlier would change the run).
    useConfig.getState().setTrainUser(users?.[0] ?? null);
    if (train) labActions.toggle();
    dismiss();
  };
  return (
    <section className="panel shared-run" aria-labelledby="shared-h" data-testid="shared-run">
      <h2 id="shared-h">A shared run</h2>
      <p>
        Someone shared these settings: preset <strong>{config.preset}</strong>, {config.algo.toUpperCase()}, seed{' '}
        <strong>{config.seed}</strong>, {config.steps} steps, from the shipped {config.preset} warm start. The same
        settings on the same kind of backend give the same run.
      </p>
      <ConfigTable config={config} keys={['preset', 'seed', ...changed.filter((k) => k !== 'seed')]} />
      <p data-testid="shared-users">
        Training users:{' '}
        {users ? (
          <>
            their own, <strong>{users.map((u) => `${u.name} (${u.id})`).join(', ')}</strong>, written in Play and
            carried in the link
          </>
        ) : (
          'the standard training set'
        )}
        .
      </p>
      <details>
        <summary>All {FIELDS.length + 1} settings</summary>
        <ConfigTable config={config} keys={['preset', ...FIELDS.map((f) => f.key)]} />
      </details>
      <div className="controls">
        <button type="button" className="primary" onClick={() => reproduce(true)}>
          Reproduce this run
        </button>
        <button type="button" onClick={() => reproduce(false)}>
          Load into the form
        </button>
        <button type="button" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </section>
  );
}
