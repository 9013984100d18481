import { stableUuid } from './ids.js';
import { SUBURBS, STREET_NAMES } from './names.js';
import { productCatalogue, toLegacyShape } from './products.js';
import { hashString, Rng } from './random.js';
import { DAY } from './consents.js';
import type { World } from './world.js';

/* Records are loose JSON: exactly what the Data API serves. */
type Json = Record<string, unknown>;

/**
 * The Data API records behind each consent, generated from (seed, consent, record) on demand.
 * A consent has data only while ACTIVE, and only the kinds its use case's scopes allow. Every
 * record carries the intermediary's `adatree` block joining it to its consent.
 */
export type RecordKind =
  | 'accounts'
  | 'balances'
  | 'transactions'
  | 'payees'
  | 'directDebits'
  | 'scheduledPayments'
  | 'customers'
  | 'energyAccounts'
  | 'invoices'
  | 'bills'
  | 'servicePoints'
  | 'usage';

/** The consent scope each record kind needs. */
export const KIND_SCOPE: Record<RecordKind, string> = {
  accounts: 'bank:accounts.basic:read',
  balances: 'bank:accounts.basic:read',
  transactions: 'bank:transactions:read',
  payees: 'bank:payees:read',
  directDebits: 'bank:regular_payments:read',
  scheduledPayments: 'bank:regular_payments:read',
  customers: 'common:customer.basic:read',
  energyAccounts: 'energy:accounts.basic:read',
  invoices: 'energy:billing:read',
  bills: 'energy:billing:read',
  servicePoints: 'energy:electricity.servicepoints.basic:read',
  usage: 'energy:electricity.usage:read',
};

const K = Object.fromEntries(
  ['accounts', 'tx', 'payees', 'dd', 'sp', 'customer', 'energy', 'usage'].map((k) => [k, hashString(`data-${k}`)]),
) as Record<string, number>;
const MERCHANTS = [
  ['Woolworths', '5411'],
  ['Coles', '5411'],
  ['Bunnings Warehouse', '5200'],
  ['Shell Coles Express', '5541'],
  ['Opal Travel', '4111'],
  ['Netflix', '4899'],
  ['Telstra', '4814'],
  ['JB Hi-Fi', '5732'],
  ['Chemist Warehouse', '5912'],
  ['Uber Eats', '5812'],
] as const;
const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(Math.floor(ms)).toISOString();

/**
 * The bounds of a transaction listing, inclusive, in ms: effective time (posting, else execution)
 * and, when asked, the intermediary's retrieval time.
 */
export interface TxWindow {
  oldest: number;
  newest: number;
  retrievedFrom?: number;
  retrievedTo?: number;
}

type ConsentBasis = NonNullable<ReturnType<RecordSource['consentBasis']>>;

/** What the account of a direct debit or scheduled payment is (the filters isOwned, openStatus, productCategories). */
export interface AccountFacts {
  openStatus: 'OPEN' | 'CLOSED';
  isOwned: boolean;
  productCategory: string;
}
/** Where a record drawn on an account keeps its account's facts (not serialised). */
export const ACCOUNT_FACTS: unique symbol = Symbol('account facts');

export class RecordSource {
  private readonly catalogues = new Map<number, Json[]>();
  private readonly scopeSets = new Map<number, Set<string>>();
  constructor(private readonly world: World) {}

  private get seed() {
    return this.world.gen.seed;
  }

  products(holderIndex: number): Json[] {
    let list = this.catalogues.get(holderIndex);
    if (!list) {
      list = productCatalogue(this.seed, this.world.gen.holders[holderIndex]!, holderIndex);
      this.catalogues.set(holderIndex, list);
    }
    return list;
  }

  /** What decides a consent's data: ACTIVE, its data holder and use case scopes. Cheap (no strings built). */
  consentBasis(index: number): { scopes: Set<string>; holder: number; consumer: number; created: number; historyDays: number } | undefined {
    const v = this.world.view(index);
    if (v.status !== 'ACTIVE' || v.holder < 0 || v.useCase < 0) return undefined;
    const useCase = this.world.gen.useCases[v.useCase]!;
    let scopes = this.scopeSets.get(v.useCase);
    if (!scopes) this.scopeSets.set(v.useCase, (scopes = new Set((useCase.scopes ?? []).map((s) => s.id))));
    return {
      scopes,
      holder: v.holder,
      consumer: v.consumer,
      created: v.created,
      historyDays: useCase.historicalCollectionPeriodInDays ?? 365,
    };
  }

  /** At a benchmark's scale, the last consent's block (a page holds thousands of one consent's transactions). */
  private lastBlock: { index: number; block: Json } | undefined;

  /** The intermediary's block joining a record to its consent. */
  adatree(index: number): Json {
    if (this.world.transactionPlan) {
      if (this.lastBlock?.index !== index) this.lastBlock = { index, block: this.block(index) };
      return this.lastBlock.block;
    }
    return this.block(index);
  }

  private block(index: number): Json {
    const c = this.world.consent(index);
    return {
      consentId: c.consentId,
      consumerId: c.consumerId,
      cdrArrangementId: c.cdrArrangementId,
      dataHolderBrandId: c.dataHolderBrandId,
      useCaseId: c.useCase?.id,
    };
  }

  /**
   * How many records of a kind a consent has (0 without the scope); for transactions, those in
   * `window` (every one the consent allows, up to the clock, without one).
   */
  count(kind: RecordKind, index: number, window?: TxWindow): number {
    const b = this.consentBasis(index);
    if (!b || !b.scopes.has(KIND_SCOPE[kind])) return 0;
    const banking = this.world.gen.holders[b.holder]!.industry === 'banking';
    const accounts = banking ? new Rng(this.seed, K.accounts!, index).int(1, 3) : 0;
    switch (kind) {
      case 'accounts':
      case 'balances':
        return accounts;
      case 'transactions': {
        let n = 0;
        for (let a = 0; a < accounts; a++) {
          const [lo, hi] = this.txRange(index, a, b, window);
          n += hi - lo;
        }
        return n;
      }
      case 'payees':
        return new Rng(this.seed, K.payees!, index).int(0, 4);
      case 'directDebits':
        return new Rng(this.seed, K.dd!, index).int(0, 3);
      case 'scheduledPayments':
        return new Rng(this.seed, K.sp!, index).int(0, 2);
      case 'customers':
        return 1;
      case 'energyAccounts':
        return banking ? 0 : 1;
      case 'servicePoints':
        return banking ? 0 : this.servicePointCount(index);
      case 'invoices':
      case 'bills':
        return banking ? 0 : 6;
      case 'usage':
        return banking ? 0 : this.servicePointCount(index) * 30;
    }
  }

  private txCount(index: number, account: number): number {
    const plan = this.world.transactionPlan;
    if (!plan) return new Rng(this.seed, K.tx!, index * 4 + account).int(10, 40);
    // A pure function of (seed, consent, account): kept, since every page counts every consent's.
    const key = index * 4 + account;
    let n = this.txCounts.get(key);
    if (n === undefined) this.txCounts.set(key, (n = this.planned(plan, index, account)));
    return n;
  }

  private readonly txCounts = new Map<number, number>();

  private planned(plan: NonNullable<World['transactionPlan']>, index: number, account: number): number {
    if (plan.largest !== undefined && index === this.largestConsent()) {
      const accounts = new Rng(this.seed, K.accounts!, index).int(1, 3);
      return Math.floor(plan.largest / accounts) + (account < plan.largest % accounts ? 1 : 0);
    }
    // Skewed: 1 + (3N − 2)·u², on average N, most accounts fewer.
    const u = new Rng(this.seed, K.tx!, index * 4 + account).float();
    return 1 + Math.floor((3 * plan.perAccount - 2) * u * u);
  }

  private largest: number | undefined;
  /** The first seeded consent with transactions (the plan's largest), found once. */
  private largestConsent(): number {
    if (this.largest === undefined) {
      this.largest = -1;
      for (let i = 0; i < this.world.gen.count; i++) {
        const b = this.consentBasis(i);
        if (b && b.scopes.has(KIND_SCOPE.transactions) && this.world.gen.holders[b.holder]!.industry === 'banking') {
          this.largest = i;
          break;
        }
      }
    }
    return this.largest;
  }

  /**
   * An account's transaction history: its seeded transactions spread evenly (each at a random point
   * of its slot, oldest first) from the earliest the consent allows (its creation less its use case's
   * historical collection period) to the sandbox's start (or the consent's creation, when later), and
   * at the same pace after it as the clock moves on: the intermediary's new retrievals.
   */
  private txSpan(b: ConsentBasis): { start: number; length: number } {
    const start = b.created - b.historyDays * DAY;
    return { start, length: Math.max(DAY, Math.max(this.world.gen.origin, b.created) - start) };
  }

  /** When the account's t-th transaction happened (`u`: its own first draw, from its Rng when not given). */
  private txWhen(index: number, a: number, t: number, b: ConsentBasis, u?: number): number {
    const draw = u ?? new Rng(this.seed, K.tx! ^ 0x7777, (index * 4 + a) * 64 + t).float();
    const { start, length } = this.txSpan(b);
    return Math.floor(start + (length * (t + draw)) / this.txCount(index, a));
  }

  /** How many transactions the account has by the clock: its seeded ones, and those since, at the same pace. */
  txTotal(index: number, a: number, b: ConsentBasis): number {
    const n = this.txCount(index, a);
    const { start, length } = this.txSpan(b);
    return Math.max(n, Math.floor(((this.world.dataNow() - start) * n) / length));
  }

  /**
   * When the intermediary last retrieved the account's t-th transaction: at the consent's creation
   * for the history before it, then as they happen; the pending ones again at each retrieval until
   * they post (which the newer transactions' arrival marks).
   */
  private txRetrieved(index: number, a: number, t: number, b: ConsentBasis, total: number): number {
    return Math.max(b.created, this.txWhen(index, a, Math.min(t + 2, total - 1), b));
  }

  /** The account's transactions in `window`: [lo, hi) of its indexes (both times grow with the index). */
  private txRange(index: number, a: number, b: ConsentBasis, window: TxWindow | undefined): [number, number] {
    const total = this.txTotal(index, a, b);
    if (!window) return [0, total];
    // The first t in [from, total) for which `past(t)` holds (it stays true from there on).
    const first = (from: number, past: (t: number) => boolean) => {
      let lo = from;
      let hi = total;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (past(mid)) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    let lo = first(0, (t) => this.txWhen(index, a, t, b) >= window.oldest);
    let hi = first(lo, (t) => this.txWhen(index, a, t, b) > window.newest);
    if (window.retrievedFrom !== undefined) {
      const from = window.retrievedFrom;
      lo = first(lo, (t) => this.txRetrieved(index, a, t, b, total) >= from);
    }
    if (window.retrievedTo !== undefined) {
      const to = window.retrievedTo;
      hi = Math.min(
        hi,
        first(0, (t) => this.txRetrieved(index, a, t, b, total) > to),
      );
    }
    return [lo, Math.max(lo, hi)];
  }

  private servicePointCount(index: number): number {
    return new Rng(this.seed, K.energy!, index).int(1, 2);
  }

  /**
   * Records [from, to) of a kind for a consent (in the same `window`), as record() gives them one by
   * one; a transaction's account ranges found once for the lot, not for each record.
   */
  *records(kind: RecordKind, index: number, from: number, to: number, legacy: boolean, window?: TxWindow): Generator<Json> {
    if (kind !== 'transactions') {
      for (let k = from; k < to; k++) yield this.record(kind, index, k, legacy, window);
      return;
    }
    const b = this.consentBasis(index)!;
    const accounts = new Rng(this.seed, K.accounts!, index).int(1, 3);
    let before = 0;
    for (let a = 0; a < accounts && before < to; a++) {
      const [lo, hi] = this.txRange(index, a, b, window);
      const accountId = stableUuid(this.seed, 'account', `${index}:${a}`);
      for (let k = Math.max(from, before); k < Math.min(to, before + hi - lo); k++) {
        const t = lo + k - before;
        yield {
          ...this.transaction(index, a, t, accountId, b),
          adatree: { ...this.adatree(index), resourceId: stableUuid(this.seed, 'tx-resource', `${index}:${a}:${t}`) },
        };
      }
      before += hi - lo;
    }
  }

  /** The k-th record of a kind for a consent (k < count, in the same `window`). `legacy`: Data API 1.x shapes. */
  record(kind: RecordKind, index: number, k: number, legacy: boolean, window?: TxWindow): Json {
    const b = this.consentBasis(index)!;
    const withBlock = (r: Json, extra: Json = {}) => ({ ...r, adatree: { ...this.adatree(index), ...extra } });
    const accountId = (a: number) => stableUuid(this.seed, 'account', `${index}:${a}`);
    switch (kind) {
      case 'accounts':
        return withBlock(this.account(index, k, b, legacy), { errors: [] });
      case 'balances':
        return withBlock({ accountId: accountId(k), ...this.balance(index, k) });
      case 'transactions': {
        let a = 0;
        let rest = k;
        let [lo, hi] = this.txRange(index, a, b, window);
        while (rest >= hi - lo) {
          rest -= hi - lo;
          [lo, hi] = this.txRange(index, ++a, b, window);
        }
        const t = lo + rest;
        return withBlock(this.transaction(index, a, t, accountId(a), b), {
          resourceId: stableUuid(this.seed, 'tx-resource', `${index}:${a}:${t}`),
        });
      }
      case 'payees': {
        const r = new Rng(this.seed, K.payees! ^ 0x51, index * 8 + k);
        const [name] = r.pick(MERCHANTS);
        const type = r.pick(['DOMESTIC', 'BILLER', 'DOMESTIC', 'INTERNATIONAL', 'DIGITAL_WALLET']);
        const nickname = type === 'BILLER' ? name : `${r.pick(['Mum', 'Landlord', 'Flatmate', 'Savings', 'Sam'])}`;
        // Its own draws for the details, so the fields above stay as they were.
        const d = new Rng(this.seed, K.payees! ^ 0x52, index * 8 + k);
        const detail: Json =
          type === 'BILLER'
            ? { payeeUType: 'biller', biller: { billerCode: d.digits(6), crn: d.digits(10), billerName: name } }
            : type === 'INTERNATIONAL'
              ? {
                  payeeUType: 'international',
                  international: {
                    beneficiaryDetails: { name: nickname, country: d.pick(['NZL', 'GBR', 'USA']) },
                    bankDetails: { country: d.pick(['NZL', 'GBR', 'USA']), accountNumber: d.digits(12) },
                  },
                }
              : type === 'DIGITAL_WALLET'
                ? {
                    payeeUType: 'digitalWallet',
                    digitalWallet: {
                      name: nickname,
                      identifier: `${nickname.toLowerCase()}@example.com`,
                      type: 'EMAIL',
                      provider: 'PAYPAL_AU',
                    },
                  }
                : {
                    payeeUType: 'domestic',
                    domestic: {
                      payeeAccountUType: 'account',
                      account: { accountName: nickname, bsb: `0${d.digits(5)}`, accountNumber: d.digits(9) },
                    },
                  };
        return withBlock({
          payeeId: stableUuid(this.seed, 'payee', `${index}:${k}`),
          nickname,
          description: `${type.toLowerCase()} payee`,
          type,
          creationDate: isoDay(b.created + r.int(1, 60) * DAY),
          ...detail,
        });
      }
      case 'directDebits': {
        const r = new Rng(this.seed, K.dd! ^ 0x77, index * 8 + k);
        const [name] = r.pick(MERCHANTS);
        return this.onAccount(index, 0, {
          accountId: accountId(0),
          authorisedEntity: { description: name, financialInstitution: 'Westpac Banking Corporation', abn: r.digits(11) },
          lastDebitDateTime: iso(this.world.now() - r.int(1, 28) * DAY),
          lastDebitAmount: money(r.float() * 150 + 10),
          adatree: this.adatree(index),
        });
      }
      case 'scheduledPayments': {
        const r = new Rng(this.seed, K.sp! ^ 0x33, index * 8 + k);
        return this.onAccount(index, 0, {
          scheduledPaymentId: stableUuid(this.seed, 'scheduled', `${index}:${k}`),
          nickname: r.pick(['Rent', 'Savings transfer', 'Gym', 'Child support']),
          payerReference: 'Scheduled payment',
          payeeReference: `REF${r.digits(6)}`,
          status: r.pick(['ACTIVE', 'ACTIVE', 'INACTIVE', 'SKIP']),
          from: { accountId: accountId(0) },
          paymentSet: [
            {
              to: { toUType: 'payeeId', payeeId: stableUuid(this.seed, 'payee', `${index}:0`) },
              isAmountCalculated: false,
              amount: money(r.float() * 900 + 50),
              currency: 'AUD',
            },
          ],
          recurrence: {
            nextPaymentDate: isoDay(this.world.now() + r.int(1, 30) * DAY),
            recurrenceUType: 'intervalSchedule',
            intervalSchedule: { intervals: [{ interval: r.pick(['P1W', 'P2W', 'P1M']) }] },
          },
          adatree: this.adatree(index),
        });
      }
      case 'customers': {
        const person = index < this.world.gen.count ? this.world.gen.consumer(b.consumer) : { firstName: 'New', lastName: 'Customer' };
        const r = new Rng(this.seed, K.customer!, index);
        const [suburb, state, postcode] = r.pick(SUBURBS);
        const contact = this.world.consent(index);
        return withBlock({
          customerUType: 'person',
          person: {
            lastUpdateTime: iso(b.created),
            firstName: person.firstName,
            lastName: person.lastName,
            middleNames: [],
            occupationCode: r.pick(['261313', '254412', '224711', '621111']),
            occupationCodeVersion: 'ANZSCO_1220.0_2013_V1.3',
            emailAddresses: contact.consumerEmail ? [{ isPreferred: true, purpose: 'HOME', address: contact.consumerEmail }] : [],
            phoneNumbers: contact.consumerMobileNumber
              ? [
                  {
                    isPreferred: true,
                    purpose: 'MOBILE',
                    countryCode: '+61',
                    number: contact.consumerMobileNumber.replace(/^\+61/, '0'),
                    fullNumber: contact.consumerMobileNumber,
                  },
                ]
              : [],
            physicalAddresses: [
              {
                addressUType: 'simple',
                simple: { addressLine1: `${r.int(1, 300)} ${r.pick(STREET_NAMES)} Street`, city: suburb, state, postcode, country: 'AUS' },
                purpose: 'REGISTERED',
              },
            ],
          },
        });
      }
      case 'energyAccounts': {
        const points = Array.from({ length: this.servicePointCount(index) }, (_, s) => this.nmi(index, s));
        return withBlock({
          accountId: stableUuid(this.seed, 'energy-account', index),
          accountNumber: new Rng(this.seed, K.energy!, index).digits(10),
          displayName: 'Home energy',
          openStatus: 'OPEN',
          creationDate: isoDay(b.created - 400 * DAY),
          plans: [
            {
              nickname: 'Home',
              servicePointIds: points,
              planOverview: { displayName: 'Everyday Saver', startDate: isoDay(b.created - 200 * DAY) },
            },
          ],
        });
      }
      case 'servicePoints': {
        const r = new Rng(this.seed, K.energy! ^ 0x99, index * 4 + k);
        return withBlock({
          servicePointId: this.nmi(index, k),
          nationalMeteringId: this.nmi(index, k),
          servicePointClassification: 'SMALL',
          servicePointStatus: 'ACTIVE',
          jurisdictionCode: r.pick(['NSW', 'VIC', 'QLD', 'SA']),
          isGenerator: r.chance(0.3),
          validFromDate: isoDay(b.created - 900 * DAY),
          lastUpdateDateTime: iso(b.created),
          distributionLossFactor: { code: `DL${r.digits(2)}`, description: 'Low voltage network', lossValue: `1.0${r.digits(3)}` },
          relatedParticipants: [
            { party: this.world.gen.holders[b.holder]!.brandName, role: 'FRMP' },
            { party: r.pick(['Ausgrid', 'CitiPower', 'Energex', 'SA Power Networks']), role: 'LNSP' },
          ],
          location: {
            addressUType: 'simple',
            simple: {
              addressLine1: `${r.int(1, 300)} ${r.pick(STREET_NAMES)} Street`,
              city: r.pick(SUBURBS)[0],
              state: r.pick(['NSW', 'VIC', 'QLD', 'SA']),
              country: 'AUS',
            },
          },
          meters: [
            {
              meterId: `M${this.nmi(index, k).slice(-6)}`,
              specifications: { status: 'CURRENT', installationType: 'COMMS4' },
              registers: [
                {
                  registerId: 'E1',
                  registerSuffix: 'E1',
                  registerConsumptionType: 'INTERVAL',
                  unitOfMeasure: 'KWH',
                  controlledLoad: false,
                },
              ],
            },
          ],
        });
      }
      case 'invoices': {
        const r = new Rng(this.seed, K.energy! ^ 0x1234, index * 8 + k);
        const end = this.world.now() - k * 30 * DAY;
        const amount = r.float() * 300 + 90;
        return withBlock({
          accountId: stableUuid(this.seed, 'energy-account', index),
          invoiceNumber: `INV-${r.digits(8)}`,
          issueDate: isoDay(end + DAY),
          dueDate: isoDay(end + 15 * DAY),
          period: { startDate: isoDay(end - 30 * DAY), endDate: isoDay(end) },
          invoiceAmount: money(amount),
          gstAmount: money(amount / 11),
          balanceAtIssue: money(k === 0 ? amount : 0),
          servicePoints: [this.nmi(index, 0)],
          paymentStatus: k === 0 ? 'NOT_PAID' : 'PAID',
        });
      }
      case 'bills': {
        const r = new Rng(this.seed, K.energy! ^ 0x4321, index * 8 + k);
        const at = this.world.now() - k * 30 * DAY;
        const amount = money(r.float() * 300 + 90);
        return withBlock(
          k % 2 === 0
            ? {
                accountId: stableUuid(this.seed, 'energy-account', index),
                executionDateTime: iso(at),
                gst: money(Number(amount) / 11),
                transactionUType: 'usage',
                usage: {
                  servicePointId: this.nmi(index, 0),
                  startDate: isoDay(at - 30 * DAY),
                  endDate: isoDay(at),
                  timeOfUseType: 'ALL_DAY',
                  measureUnit: 'KWH',
                  usage: r.int(200, 900),
                  amount,
                },
              }
            : {
                accountId: stableUuid(this.seed, 'energy-account', index),
                executionDateTime: iso(at),
                transactionUType: 'payment',
                payment: { amount: `-${amount}`, method: r.pick(['DIRECT_DEBIT', 'CARD', 'TRANSFER']) },
              },
        );
      }
      case 'usage': {
        // By meter (NMI ascending), then the newest read first, as the document orders them.
        const s = this.servicePointsByNmi(index)[Math.floor(k / 30)]!;
        const day = 29 - (k % 30);
        const r = new Rng(this.seed, K.usage!, index * 64 + k);
        const start = this.world.now() - (30 - day) * DAY;
        return withBlock({
          servicePointId: this.nmi(index, s),
          registerId: 'E1',
          registerSuffix: 'E1',
          meterId: `M${this.nmi(index, s).slice(-6)}`,
          controlledLoad: false,
          readStartDate: isoDay(start),
          readEndDate: isoDay(start + DAY),
          unitOfMeasure: 'KWH',
          readUType: 'basicRead',
          basicRead: { quality: r.chance(0.95) ? 'ACTUAL' : 'SUBSTITUTE', value: Math.round((r.float() * 20 + 5) * 100) / 100 },
        });
      }
    }
  }

  /**
   * What an account is, from its own draws: about one in ten closed, one in eight not owned by the
   * consumer (a joint or authorised account), and its product's category.
   */
  private accountFacts(index: number, a: number): AccountFacts {
    const r = new Rng(this.seed, K.accounts! ^ 0x0c1d, index * 4 + a);
    return {
      openStatus: r.chance(0.1) ? 'CLOSED' : 'OPEN',
      isOwned: !r.chance(0.125),
      productCategory: String(this.productFor(index, a).productCategory),
    };
  }

  /** A record drawn on an account, carrying (out of its JSON) the account's facts its filters read. */
  private onAccount(index: number, a: number, record: Json): Json {
    Object.defineProperty(record, ACCOUNT_FACTS, { value: this.accountFacts(index, a), enumerable: false });
    return record;
  }

  private servicePointsByNmi(index: number): number[] {
    return Array.from({ length: this.servicePointCount(index) }, (_, s) => s).sort((x, y) =>
      this.nmi(index, x) < this.nmi(index, y) ? -1 : this.nmi(index, x) > this.nmi(index, y) ? 1 : x - y,
    );
  }

  private nmi(index: number, s: number): string {
    return `4${new Rng(this.seed, K.energy! ^ 0x5555, index * 4 + s).digits(9)}`;
  }

  private balance(index: number, a: number): Json {
    const product = this.productFor(index, a);
    const r = new Rng(this.seed, K.accounts! ^ 0xbeef, index * 4 + a);
    if (product.productCategory === 'CRED_AND_CHRG_CARDS') {
      const owed = r.float() * 3000;
      return { currentBalance: money(-owed), availableBalance: money(6000 - owed), creditLimit: '6000.00', currency: 'AUD' };
    }
    if (product.productCategory === 'RESIDENTIAL_MORTGAGES' || product.productCategory === 'PERS_LOANS') {
      const owed = r.float() * 400_000 + 5000;
      return { currentBalance: money(-owed), availableBalance: money(r.float() * 5000), amortisedLimit: money(owed), currency: 'AUD' };
    }
    const bal = r.float() * 20_000;
    return { currentBalance: money(bal), availableBalance: money(bal), currency: 'AUD' };
  }

  private productFor(index: number, a: number): Json {
    const b = this.consentBasis(index)!;
    const list = this.products(b.holder);
    return list[new Rng(this.seed, K.accounts! ^ 0xf00d, index * 4 + a).int(0, list.length - 1)]!;
  }

  private account(index: number, a: number, b: NonNullable<ReturnType<RecordSource['consentBasis']>>, legacy: boolean): Json {
    const product = this.productFor(index, a);
    const r = new Rng(this.seed, K.accounts! ^ 0xabc, index * 4 + a);
    const number = r.digits(9);
    const category = String(product.productCategory);
    const detail = b.scopes.has('bank:accounts.detail:read');
    const account: Json = {
      accountId: stableUuid(this.seed, 'account', `${index}:${a}`),
      creationDate: isoDay(b.created - r.int(30, 2000) * DAY),
      displayName: String(product.name),
      nickname: r.chance(0.4) ? r.pick(['Bills', 'Holiday fund', 'Daily', 'Mortgage']) : undefined,
      openStatus: this.accountFacts(index, a).openStatus,
      isOwned: this.accountFacts(index, a).isOwned,
      accountOwnership: r.pick(['ONE_PARTY', 'ONE_PARTY', 'TWO_PARTY']),
      maskedNumber: `xxxxx${number.slice(-4)}`,
      productCategory: category,
      productName: String(product.name),
      balance: this.balance(index, a),
    };
    if (detail) {
      Object.assign(account, {
        bsb: `0${r.digits(5)}`,
        accountNumber: number,
        fees: product.fees ?? [],
        depositRates: product.depositRates ?? [],
        lendingRates: product.lendingRates ?? [],
        features: ((product.features as Json[]) ?? []).map((f) => ({ ...f, isActivated: 'ACTIVATED' })),
      });
      if (product.instalments) account.instalments = product.instalments;
      if (category === 'TERM_DEPOSITS')
        Object.assign(account, {
          specificAccountUType: 'termDeposit',
          termDeposit: [
            {
              lodgementDate: isoDay(b.created),
              maturityDate: isoDay(b.created + 365 * DAY),
              maturityAmount: money(r.float() * 50_000 + 5000),
              maturityCurrency: 'AUD',
              maturityInstructions: 'ROLLED_OVER',
            },
          ],
        });
      if (category === 'CRED_AND_CHRG_CARDS')
        Object.assign(account, {
          specificAccountUType: 'creditCard',
          creditCard: {
            minPaymentAmount: '25.00',
            paymentDueAmount: money(r.float() * 800),
            paymentCurrency: 'AUD',
            paymentDueDate: isoDay(this.world.now() + 14 * DAY),
          },
        });
      if (category === 'RESIDENTIAL_MORTGAGES' || category === 'PERS_LOANS')
        Object.assign(account, {
          specificAccountUType: 'loan',
          loan: {
            originalStartDate: isoDay(b.created - 900 * DAY),
            originalLoanAmount: money(r.float() * 600_000 + 10_000),
            loanEndDate: isoDay(b.created + 9000 * DAY),
            nextInstalmentDate: isoDay(this.world.now() + 10 * DAY),
            minInstalmentAmount: money(r.float() * 3000 + 200),
            repaymentType: 'PRINCIPAL_AND_INTEREST',
            repaymentFrequency: 'P1M',
            offsetAccountEnabled: category === 'RESIDENTIAL_MORTGAGES',
          },
        });
    }
    for (const key of Object.keys(account)) if (account[key] === undefined) delete account[key];
    return legacy ? toLegacyShape(account) : account;
  }

  private transaction(index: number, a: number, t: number, accountId: string, b: ConsentBasis): Json {
    const r = new Rng(this.seed, K.tx! ^ 0x7777, (index * 4 + a) * 64 + t);
    const when = this.txWhen(index, a, t, b, r.float());
    const credit = r.chance(0.2);
    const [merchant, mcc] = r.pick(MERCHANTS);
    // The newest two are pending (they post when newer ones arrive).
    const pending = t >= this.txTotal(index, a, b) - 2;
    // At a benchmark's scale, a rare word in about one description in a thousand (its own draw: the rest is as ever).
    const rare =
      this.world.transactionPlan !== undefined && new Rng(this.seed, K.tx! ^ 0x5eed, (index * 4 + a) * 1_000_003 + t).chance(0.001);
    return {
      accountId,
      transactionId: stableUuid(this.seed, 'tx', `${index}:${a}:${t}`),
      isDetailAvailable: false,
      type: credit
        ? r.pick(['TRANSFER_INCOMING', 'INTEREST_PAID'])
        : r.pick(['PAYMENT', 'PAYMENT', 'DIRECT_DEBIT', 'FEE', 'TRANSFER_OUTGOING']),
      status: pending ? 'PENDING' : 'POSTED',
      description: `${credit ? 'Salary ACME PTY LTD' : `${merchant.toUpperCase()} ${r.pick(SUBURBS)[0].toUpperCase()}`}${rare ? ' CHARGEBACK' : ''}`,
      ...(pending ? {} : { postingDateTime: iso(when) }),
      executionDateTime: iso(when),
      amount: credit ? money(r.float() * 3000 + 100) : money(-(r.float() * 180 + 2)),
      currency: 'AUD',
      reference: credit ? `PAY${r.digits(6)}` : '',
      ...(credit ? {} : { merchantName: merchant, merchantCategoryCode: mcc }),
    };
  }
}
