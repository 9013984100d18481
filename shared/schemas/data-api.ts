import * as z from 'zod';
import { IsoDate, IsoDateTime, opt, schemaSet } from './define.js';

/**
 * The Data API's records (Data API 2.0.0; field lists from the intermediary's data.yaml and CDS).
 * Amounts and rates are strings (AmountString / RateString) and stay strings. Product and account
 * fees, rates and tiers are accepted in any shape here; the normalizer (shared/banking) turns them
 * into the 2.0.0 form, validated by banking-product.ts.
 */
export const PRODUCT_CATEGORIES = [
  'BUSINESS_LOANS',
  'BUY_NOW_PAY_LATER',
  'CRED_AND_CHRG_CARDS',
  'LEASES',
  'MARGIN_LOANS',
  'OVERDRAFTS',
  'PERS_LOANS',
  'REGULATED_TRUST_ACCOUNTS',
  'RESIDENTIAL_MORTGAGES',
  'TERM_DEPOSITS',
  'TRADE_FINANCE',
  'TRANS_AND_SAVINGS_ACCOUNTS',
  'TRAVEL_CARDS',
] as const;
export const DATA_API_ERROR_CODES = [
  'BALANCE_REFRESH_ERROR',
  'CONSUMER_PRESENT_REFRESH_ERROR',
  'THROTTLED_BY_DATA_HOLDER_ERROR',
  'COLLECTION_ERROR',
] as const;

export const dataApi = schemaSet((en) => {
  const text = z.string();
  const amount = z.string();

  /** The intermediary's block on every consent-derived record: joins data to consents. */
  const Adatree = z.looseObject({
    consentId: text,
    consumerId: text,
    cdrArrangementId: text,
    dataHolderBrandId: text,
    useCaseId: text,
  });
  const SecuredCdsDataApiError = z.looseObject({ code: en(DATA_API_ERROR_CODES), title: text, detail: text, retryAfter: opt(text) });

  const loose = z.looseObject({});
  /** Fees, rates and tiers in any CDS shape (see the normalizer). */
  const anyShapeList = opt(z.array(z.unknown()));

  const BankingBalance = z.looseObject({
    accountId: opt(text),
    currentBalance: amount,
    availableBalance: amount,
    creditLimit: opt(amount),
    amortisedLimit: opt(amount),
    currency: opt(text),
    purses: opt(z.array(z.looseObject({ amount, currency: opt(text) }))),
    refreshDateTime: opt(IsoDateTime),
  });

  const BankingAccountDetail = z.looseObject({
    accountId: text,
    creationDate: opt(IsoDate),
    displayName: text,
    nickname: opt(text),
    openStatus: opt(en(['OPEN', 'CLOSED'])),
    isOwned: opt(z.boolean()),
    accountOwnership: opt(en(['UNKNOWN', 'ONE_PARTY', 'TWO_PARTY', 'MANY_PARTY', 'OTHER'])),
    maskedNumber: text,
    productCategory: en(PRODUCT_CATEGORIES),
    productName: text,
    bsb: opt(text),
    accountNumber: opt(text),
    balance: opt(BankingBalance),
    bundleName: opt(text),
    specificAccountUType: opt(en(['termDeposit', 'creditCard', 'loan'])),
    termDeposit: opt(
      z.array(
        z.looseObject({
          lodgementDate: IsoDate,
          maturityDate: IsoDate,
          maturityAmount: opt(amount),
          maturityCurrency: opt(text),
          maturityInstructions: en(['ROLLED_OVER', 'PAID_OUT_AT_MATURITY', 'HOLD_ON_MATURITY']),
        }),
      ),
    ),
    creditCard: opt(
      z.looseObject({ minPaymentAmount: amount, paymentDueAmount: amount, paymentCurrency: opt(text), paymentDueDate: IsoDate }),
    ),
    loan: opt(
      z.looseObject({
        originalStartDate: opt(IsoDate),
        originalLoanAmount: opt(amount),
        loanEndDate: opt(IsoDate),
        nextInstalmentDate: opt(IsoDate),
        minInstalmentAmount: opt(amount),
        maxRedraw: opt(amount),
        minRedraw: opt(amount),
        offsetAccountEnabled: opt(z.boolean()),
        offsetAccountIds: opt(z.array(text)),
        repaymentType: opt(en(['INTEREST_ONLY', 'PRINCIPAL_AND_INTEREST'])),
        repaymentFrequency: opt(text),
      }),
    ),
    depositRate: opt(text),
    lendingRate: opt(text),
    depositRates: anyShapeList,
    lendingRates: anyShapeList,
    features: anyShapeList,
    fees: anyShapeList,
    instalments: opt(loose),
    addresses: opt(z.array(loose)),
    adatree: opt(Adatree.extend({ errors: opt(z.array(SecuredCdsDataApiError)) })),
  });

  const BankingTransaction = z.looseObject({
    accountId: text,
    transactionId: opt(text),
    isDetailAvailable: z.boolean(),
    type: en(['DIRECT_DEBIT', 'FEE', 'INTEREST_CHARGED', 'INTEREST_PAID', 'PAYMENT', 'TRANSFER_OUTGOING', 'TRANSFER_INCOMING', 'OTHER']),
    status: en(['PENDING', 'POSTED']),
    description: text,
    postingDateTime: opt(IsoDateTime),
    valueDateTime: opt(IsoDateTime),
    executionDateTime: opt(IsoDateTime),
    amount,
    currency: opt(text),
    reference: text,
    merchantName: opt(text),
    merchantCategoryCode: opt(text),
    billerCode: opt(text),
    billerName: opt(text),
    crn: opt(text),
    apcaNumber: opt(text),
    extendedData: opt(loose),
    adatree: opt(Adatree.extend({ resourceId: text })),
  });

  const BankingPayee = z.looseObject({
    payeeId: text,
    nickname: text,
    description: opt(text),
    type: en(['BILLER', 'DIGITAL_WALLET', 'DOMESTIC', 'INTERNATIONAL']),
    creationDate: opt(IsoDate),
    adatree: opt(Adatree),
  });

  const BankingDirectDebit = z.looseObject({
    accountId: text,
    authorisedEntity: z.looseObject({
      description: opt(text),
      financialInstitution: opt(text),
      abn: opt(text),
      acn: opt(text),
      arbn: opt(text),
    }),
    lastDebitDateTime: opt(IsoDateTime),
    lastDebitAmount: opt(amount),
    adatree: opt(Adatree),
  });

  const BankingScheduledPayment = z.looseObject({
    scheduledPaymentId: text,
    nickname: opt(text),
    payerReference: text,
    payeeReference: text,
    status: en(['ACTIVE', 'INACTIVE', 'SKIP']),
    from: z.looseObject({ accountId: text }),
    paymentSet: z.array(
      z.looseObject({
        to: z.looseObject({ toUType: opt(en(['accountId', 'biller', 'digitalWallet', 'domestic', 'international', 'payeeId'])) }),
        isAmountCalculated: opt(z.boolean()),
        amount: opt(amount),
        currency: opt(text),
      }),
    ),
    recurrence: z.looseObject({
      nextPaymentDate: opt(IsoDate),
      recurrenceUType: en(['onceOff', 'intervalSchedule', 'lastWeekDay', 'eventBased']),
    }),
    adatree: Adatree,
  });

  /** A product detail in any CDS shape (GET /data/banking/products): normalise before reading fees and rates. */
  const BankingProductDetail = z.looseObject({
    productId: text,
    effectiveFrom: opt(IsoDateTime),
    effectiveTo: opt(IsoDateTime),
    lastUpdated: opt(IsoDateTime),
    dataHolderId: opt(text),
    dataHolderBrandName: opt(text),
    productCategory: opt(en(PRODUCT_CATEGORIES)),
    name: opt(text),
    description: opt(text),
    brand: opt(text),
    brandName: opt(text),
    applicationUri: opt(text),
    isTailored: opt(z.boolean()),
    additionalInformation: opt(loose),
    cardArt: opt(z.array(loose)),
    bundles: opt(z.array(loose)),
    features: anyShapeList,
    constraints: opt(z.array(loose)),
    eligibility: opt(z.array(loose)),
    fees: anyShapeList,
    depositRates: anyShapeList,
    lendingRates: anyShapeList,
    instalments: opt(loose),
  });

  const CommonCustomer = z.looseObject({
    customerUType: en(['person', 'organisation']),
    person: opt(
      z.looseObject({
        lastUpdateTime: opt(IsoDateTime),
        firstName: opt(text),
        lastName: text,
        middleNames: z.array(text),
        prefix: opt(text),
        suffix: opt(text),
        occupationCode: opt(text),
        occupationCodeVersion: opt(text),
        phoneNumbers: opt(z.array(loose)),
        emailAddresses: opt(z.array(loose)),
        physicalAddresses: opt(z.array(loose)),
      }),
    ),
    organisation: opt(
      z.looseObject({
        lastUpdateTime: opt(IsoDateTime),
        agentFirstName: opt(text),
        agentLastName: text,
        agentRole: text,
        businessName: text,
        legalName: opt(text),
        shortName: opt(text),
        abn: opt(text),
        acn: opt(text),
        isACNCRegistered: opt(z.boolean()),
        industryCode: opt(text),
        organisationType: en(['COMPANY', 'GOVERNMENT_ENTITY', 'PARTNERSHIP', 'SOLE_TRADER', 'TRUST', 'OTHER']),
        registeredCountry: opt(text),
        establishmentDate: opt(IsoDate),
      }),
    ),
    adatree: Adatree,
  });

  const EnergyPlan = z.looseObject({
    planId: text,
    effectiveFrom: opt(IsoDateTime),
    effectiveTo: opt(IsoDateTime),
    lastUpdated: IsoDateTime,
    displayName: opt(text),
    description: opt(text),
    type: en(['STANDING', 'MARKET', 'REGULATED']),
    fuelType: en(['ELECTRICITY', 'GAS', 'DUAL']),
    brand: text,
    brandName: text,
    applicationUri: opt(text),
    additionalInformation: opt(loose),
    customerType: opt(en(['RESIDENTIAL', 'BUSINESS'])),
    geography: opt(loose),
  });

  const EnergyAccount = z.looseObject({
    accountId: text,
    accountNumber: opt(text),
    displayName: opt(text),
    openStatus: opt(en(['CLOSED', 'OPEN'])),
    creationDate: opt(IsoDate),
    plans: z.array(
      z.looseObject({ nickname: opt(text), servicePointIds: z.array(text), planOverview: opt(loose), planDetail: opt(loose) }),
    ),
    adatree: opt(Adatree),
  });

  const EnergyInvoice = z.looseObject({
    accountId: text,
    invoiceNumber: text,
    issueDate: IsoDate,
    dueDate: opt(IsoDate),
    period: opt(z.looseObject({ startDate: IsoDate, endDate: IsoDate })),
    invoiceAmount: opt(amount),
    gstAmount: opt(amount),
    payOnTimeDiscount: opt(loose),
    balanceAtIssue: amount,
    servicePoints: z.array(text),
    gas: opt(loose),
    electricity: opt(loose),
    accountCharges: opt(loose),
    paymentStatus: en(['PAID', 'PARTIALLY_PAID', 'NOT_PAID']),
    adatree: Adatree,
  });

  const EnergyBillingTransaction = z.looseObject({
    accountId: text,
    executionDateTime: IsoDateTime,
    gst: opt(amount),
    transactionUType: en(['usage', 'demand', 'onceOff', 'otherCharges', 'payment']),
    usage: opt(loose),
    demand: opt(loose),
    onceOff: opt(loose),
    otherCharges: opt(loose),
    payment: opt(loose),
    adatree: Adatree,
  });

  const EnergyServicePoint = z.looseObject({
    servicePointId: text,
    nationalMeteringId: text,
    servicePointClassification: en([
      'EXTERNAL_PROFILE',
      'GENERATOR',
      'LARGE',
      'SMALL',
      'WHOLESALE',
      'NON_CONTEST_UNMETERED_LOAD',
      'NON_REGISTERED_EMBEDDED_GENERATOR',
      'DISTRIBUTION_WHOLESALE',
    ]),
    servicePointStatus: en(['ACTIVE', 'DE_ENERGISED', 'EXTINCT', 'GREENFIELD', 'OFF_MARKET']),
    jurisdictionCode: en(['ALL', 'ACT', 'NEM', 'NSW', 'QLD', 'SA', 'TAS', 'VIC']),
    isGenerator: opt(z.boolean()),
    validFromDate: IsoDate,
    lastUpdateDateTime: IsoDateTime,
    consumerProfile: opt(loose),
    adatree: opt(Adatree),
  });

  const EnergyUsageRead = z.looseObject({
    servicePointId: text,
    registerId: opt(text),
    registerSuffix: text,
    meterId: opt(text),
    controlledLoad: opt(z.boolean()),
    readStartDate: IsoDate,
    readEndDate: opt(IsoDate),
    unitOfMeasure: opt(text),
    readUType: en(['basicRead', 'intervalRead']),
    basicRead: opt(z.looseObject({ quality: opt(en(['ACTUAL', 'SUBSTITUTE', 'FINAL_SUBSTITUTE'])), value: z.number() })),
    intervalRead: opt(
      z.looseObject({ readIntervalLength: opt(z.number().int()), aggregateValue: z.number(), intervalReads: opt(z.array(z.number())) }),
    ),
    adatree: Adatree,
  });

  const Links = z.looseObject({ self: opt(text), first: opt(text), prev: opt(text), next: opt(text), last: opt(text) });
  const Meta = z.looseObject({ totalPages: z.number().int().nonnegative(), totalRecords: z.number().int().nonnegative() });
  /** `{data: {<collection>: [...]}, links, meta}`, the envelope of every Data API list. */
  const list = <K extends string, T extends z.ZodType>(key: K, item: T) =>
    z.looseObject({ data: z.looseObject({ [key]: z.array(item) } as Record<K, z.ZodArray<T>>), links: Links, meta: Meta });

  return {
    Adatree,
    SecuredCdsDataApiError,
    BankingBalance,
    BankingAccountDetail,
    BankingTransaction,
    BankingPayee,
    BankingDirectDebit,
    BankingScheduledPayment,
    BankingProductDetail,
    CommonCustomer,
    EnergyPlan,
    EnergyAccount,
    EnergyInvoice,
    EnergyBillingTransaction,
    EnergyServicePoint,
    EnergyUsageRead,
    BankingAccountList: list('accounts', BankingAccountDetail),
    BankingBalanceList: list('balances', BankingBalance),
    BankingTransactionList: list('transactions', BankingTransaction),
    BankingPayeeList: list('payees', BankingPayee),
    BankingDirectDebitList: list('directDebitAuthorisations', BankingDirectDebit),
    BankingScheduledPaymentList: list('scheduledPayments', BankingScheduledPayment),
    BankingProductList: list('products', BankingProductDetail),
    CommonCustomerList: list('customers', CommonCustomer),
    EnergyPlanList: list('plans', EnergyPlan),
    EnergyAccountList: list('accounts', EnergyAccount),
    EnergyInvoiceList: list('invoices', EnergyInvoice),
    EnergyBillingList: list('transactions', EnergyBillingTransaction),
    EnergyServicePointList: list('servicePoints', EnergyServicePoint),
    EnergyUsageList: list('reads', EnergyUsageRead),
    ErrorList: z.looseObject({
      errors: z.array(z.looseObject({ code: text, title: text, detail: text, meta: opt(z.looseObject({ urn: opt(text) })) })).min(1),
    }),
  };
});
