/**
 * The console's money settings (admin): the currency rates every amount is converted with (set
 * here, never fetched) and the alert rules (engine/console/alerts.ts), with where alerts are sent
 * and how the last webhook messages and e-mails fared (an SMTP server's host only: its credentials
 * never reach the browser). Posts to /api/console/settings, each change audited.
 */
import type { GetServerSideProps } from 'next';
import type { ReactNode } from 'react';
import { ConsoleLayout, DataTable, Options, buttonClass, inputClass } from '../../blocks/console/ConsoleLayout';
import { when } from '../../blocks/console/format';
import { consolePage, ownKey, queryText, type ConsoleProps } from '../../engine/console/pages';
import { CURRENCIES, SETTINGS_FAILED, SETTINGS_NOTES, type SettingsNote } from '../../engine/console/settingsNotes';
import { alertRules, webhookOf } from '../../engine/console/alerts';
import { MAX_QUIET_MINUTES, MAX_WINDOW_HOURS, ruleText } from '../../engine/console/alertRules';
import { smtpHost, smtpOf } from '../../engine/console/alertEmail';
import { getCatalog } from '../../engine/site/catalog';
import { rateRows } from '../../engine/store/currencyRates';
import { rateText } from '../../engine/traffic/currency';
import { liveBuyers } from '../../engine/sale/buyerRevisions';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{
  note: string;
  ok: boolean;
  rates: { currency: string; text: string; setBy: string; setAt: string }[];
  rules: { id: string; text: string }[];
  buyers: string[];
  brands: string[];
  /** where alerts go (the host only), or '' when no webhook is set */
  webhookHost: string;
  /** the SMTP server's host and how many recipients, or '' when no e-mail is set */
  emailTo: string;
  deliveries: Delivery[];
}>;
type Delivery = { channel: string; status: string; n: number };

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'settings.manage', async (db) => {
    const key = queryText(ctx.query.note);
    const note = ownKey<SettingsNote>(SETTINGS_NOTES, key);
    const hook = webhookOf();
    const deliveries = await db
      .selectFrom('alert_deliveries')
      .select((eb) => ['channel', 'status', eb.fn.countAll<number | string>().as('n')])
      .groupBy(['channel', 'status'])
      .orderBy('channel')
      .execute();
    const smtp = smtpOf();
    return {
      note: note ? SETTINGS_NOTES[note] : '',
      ok: !!note && !SETTINGS_FAILED.includes(note),
      rates: (await rateRows(db)).map((r) => ({ currency: r.currency, text: rateText(r.currency, Number(r.usd_micros)), setBy: r.set_by, setAt: r.set_at })),
      rules: (await alertRules(db)).map((r) => ({ id: r.id, text: ruleText(r) })),
      buyers: [...liveBuyers().buyers.keys()].sort(),
      brands: [...getCatalog().brands.keys()].sort(),
      webhookHost: hook ? new URL(hook.url).host : '',
      emailTo: smtp ? `${smtp.to.length} ${smtp.to.length === 1 ? 'address' : 'addresses'} through ${smtpHost(smtp)}` : '',
      deliveries: deliveries.map((d) => ({ channel: d.channel, status: d.status, n: Number(d.n) })),
    };
  });

/** A post to /api/console/settings with the session's CSRF token and the change it makes. */
function SettingsForm({ csrf, op, className, children }: { csrf: string; op: string; className?: string; children: ReactNode }) {
  return (
    <form method="post" action="/api/console/settings" className={className}>
      <input type="hidden" name="csrf" value={csrf} />
      <input type="hidden" name="op" value={op} />
      {children}
    </form>
  );
}

const deliveryText = (rows: Delivery[], channel: string) =>
  rows
    .filter((d) => d.channel === channel)
    .map((d) => `${d.n} ${d.status}`)
    .join(', ');

/** A choice of one (a buyer, a brand) or every one. */
function EveryOrOne({ label, name, every, values }: { label: string; name: string; every: string; values: string[] }) {
  return (
    <label className="flex flex-col text-sm">
      {label}
      <select name={name} className={inputClass}>
        <option value="">{every}</option>
        <Options values={values} />
      </select>
    </label>
  );
}

function NumberField({ label, name, placeholder, required = true }: { label: string; name: string; placeholder: string; required?: boolean }) {
  return (
    <label className="flex flex-col text-sm">
      {label}
      <input name={name} inputMode="numeric" required={required} placeholder={placeholder} className={inputClass} />
    </label>
  );
}

const smallButton = 'inline-flex min-h-11 min-w-11 items-center rounded border border-slate-600 bg-white px-3 text-sm';

export default function SettingsPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Settings" viewer={props.viewer} forbidden />;
  const { csrf } = props.viewer;
  return (
    <ConsoleLayout title="Settings" viewer={props.viewer} current="/settings">
      {props.note && (
        <p
          role={props.ok ? 'status' : 'alert'}
          className={`mb-4 max-w-xl rounded border p-2 ${props.ok ? 'border-green-700 bg-green-50' : 'border-amber-700 bg-amber-50'}`}
        >
          {props.note}
        </p>
      )}
      <section aria-labelledby="rates" className="mb-8 max-w-3xl">
        <h2 id="rates" className="mb-2 text-xl font-semibold">
          Currency rates
        </h2>
        <p className="mb-2">
          Sales are in their brand&apos;s currency and costs in their report&apos;s. Each operator reads amounts in their own currency (set on Your account),
          converted with these rates; a currency without a rate is left out of the figures and named. Rates are never fetched: set them here.
        </p>
        <DataTable
          caption="Rates in use"
          head={['Currency', 'Rate', 'Set by', 'Set at']}
          rows={props.rates.length ? props.rates.map((r) => [r.currency, r.text, r.setBy, when(r.setAt)]) : [['—', 'No rate is set', '', '']]}
        />
        <SettingsForm csrf={csrf} op="rate" className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col text-sm">
            Currency
            <select name="currency" className={inputClass}>
              <Options values={CURRENCIES.filter((c) => c !== 'USD')} />
            </select>
          </label>
          <label className="flex flex-col text-sm">
            One unit in US dollars
            <input name="rate" inputMode="decimal" required placeholder="0.73" className={inputClass} />
          </label>
          <button type="submit" className={buttonClass}>
            Save rate
          </button>
        </SettingsForm>
      </section>
      <section aria-labelledby="alerts" className="mb-8 max-w-3xl">
        <h2 id="alerts" className="mb-2 text-xl font-semibold">
          Alerts
        </h2>
        <p className="mb-2" data-testid="webhook">
          {props.webhookHost
            ? `Alerts show on the overview while open and are sent, signed, to ${props.webhookHost} when they open and when they resolve.`
            : 'Alerts show on the overview while open. No webhook is set (ALERT_WEBHOOK_URL and ALERT_WEBHOOK_SECRET), so none are sent.'}
          {props.deliveries.some((d) => d.channel === 'webhook') && ` Webhook messages: ${deliveryText(props.deliveries, 'webhook')}.`}
        </p>
        <p className="mb-2" data-testid="email">
          {props.emailTo
            ? `They are also e-mailed to ${props.emailTo}.`
            : 'No e-mail is set (ALERT_SMTP_URL, ALERT_EMAIL_FROM and ALERT_EMAIL_TO), so none are e-mailed.'}
          {props.deliveries.some((d) => d.channel === 'email') && ` E-mails: ${deliveryText(props.deliveries, 'email')}.`}
        </p>
        <ul className="mb-4 flex flex-col gap-2">
          {props.rules.length === 0 && <li>No alert is set.</li>}
          {props.rules.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-2">
              <span>{r.text}</span>
              <SettingsForm csrf={csrf} op="alert-remove">
                <input type="hidden" name="id" value={r.id} />
                <button type="submit" className={smallButton} aria-label={`Remove the alert: ${r.text}`}>
                  Remove
                </button>
              </SettingsForm>
            </li>
          ))}
        </ul>
        <SettingsForm csrf={csrf} op="alert-add" className="mb-4 flex flex-wrap items-end gap-3">
          <label className="flex flex-col text-sm">
            Kind
            <select name="kind" className={inputClass}>
              <option value="cap">Cap at 90 % and 100 %</option>
              <option value="acceptance">Acceptance under a threshold</option>
            </select>
          </label>
          <EveryOrOne label="Buyer" name="buyer" every="Every buyer" values={props.buyers} />
          <NumberField label="Acceptance under (%)" name="threshold" placeholder="40" required={false} />
          <NumberField label={`Over the last (hours, at most ${MAX_WINDOW_HOURS})`} name="window" placeholder="6" required={false} />
          <button type="submit" className={buttonClass}>
            Add alert
          </button>
        </SettingsForm>
        <h3 className="mb-1 font-semibold">A buyer&apos;s failed calls in the last hour</h3>
        <p className="mb-2 text-sm">
          Failures are pings and posts without an answer in time, with a broken connection, a status other than 200, or an answer that could not be read or was
          refused as hostile; a plain &ldquo;no bid&rdquo; or &ldquo;refused&rdquo; is the buyer&apos;s choice, not a failure.
        </p>
        <SettingsForm csrf={csrf} op="alert-add" className="mb-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="kind" value="failures" />
          <EveryOrOne label="Buyer" name="buyer" every="Every buyer" values={props.buyers} />
          <NumberField label="At or over" name="threshold" placeholder="20" />
          <label className="flex flex-col text-sm">
            Counted as
            <select name="unit" className={inputClass}>
              <option value="%">% of its calls</option>
              <option value="calls">failed calls</option>
            </select>
          </label>
          <button type="submit" className={buttonClass}>
            Add failure alert
          </button>
        </SettingsForm>
        <h3 className="mb-1 font-semibold">No sale while buyers are scheduled</h3>
        <SettingsForm csrf={csrf} op="alert-add" className="mb-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="kind" value="no-sale" />
          <NumberField label={`No sale for (minutes, at most ${MAX_QUIET_MINUTES})`} name="minutes" placeholder="30" />
          <button type="submit" className={buttonClass}>
            Add no-sale alert
          </button>
        </SettingsForm>
        <h3 className="mb-1 font-semibold">A brand&apos;s visit → lead rate against the same hours last week</h3>
        <SettingsForm csrf={csrf} op="alert-add" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="kind" value="lead-rate" />
          <EveryOrOne label="Brand" name="brand" every="Every brand" values={props.brands} />
          <NumberField label="Under (% of last week's rate)" name="threshold" placeholder="50" />
          <NumberField label={`Over the last (whole hours, at most ${MAX_WINDOW_HOURS})`} name="window" placeholder="3" />
          <NumberField label="With at least (visits in each window)" name="minimum" placeholder="200" />
          <button type="submit" className={buttonClass}>
            Add lead-rate alert
          </button>
        </SettingsForm>
      </section>
    </ConsoleLayout>
  );
}
