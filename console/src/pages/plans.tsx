import { api, call } from '../api.js';
import { ErrorNotice, Loading, Section, Table } from '../components/common.js';
import { count, dateTime } from '../format.js';
import { useLoad } from '../load.js';
import { loadPlans } from './shared.js';

/** The plan table in force, and when the instance that answered read it. */
export function PlansPage() {
  const plans = useLoad(loadPlans, []);
  const loads = useLoad(() => call(api.GET('/admin/plans/loads')), []);
  return (
    <>
      <Section title="The plan table in force">
        <Loading when={plans.loading && !plans.data} />
        <ErrorNotice error={plans.error} />
        {plans.data && (
          <Table caption="Plans and their quotas">
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Per minute</th>
                <th scope="col">Per day</th>
              </tr>
            </thead>
            <tbody>
              {plans.data.map((plan) => (
                <tr key={plan.name}>
                  <td>{plan.name}</td>
                  <td>{plan.perMinute === undefined ? 'set per key' : count(plan.perMinute)}</td>
                  <td>{plan.perDay === undefined ? 'set per key' : count(plan.perDay)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
      <Section title="Reloads">
        <ErrorNotice error={loads.error} />
        {loads.data && (
          <dl>
            <dt>Read by this instance</dt>
            <dd>{dateTime(loads.data.loadedAt)}</dd>
            <dt>Last reload</dt>
            <dd>
              {loads.data.lastReloadAt === undefined
                ? 'None since start-up'
                : `${dateTime(loads.data.lastReloadAt)}, ${loads.data.lastReloadSucceeded ? 'succeeded' : 'failed: the table in force was kept (the log says why)'}`}
            </dd>
          </dl>
        )}
        <p class="muted">
          The table is the plans file with its environment overrides; each instance re-reads it when the file changes or
          on SIGHUP.
        </p>
      </Section>
    </>
  );
}
