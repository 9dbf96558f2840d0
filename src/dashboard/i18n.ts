/**
 * The dashboard's words in English and Khmer. Both tables have every entry (the type says so): no Khmer page falls
 * back to English. Numbers on Khmer pages are written with Khmer digits (`digits`, `number`).
 */
export type Lang = 'en' | 'km';

const en = {
  title: 'kh-address',
  tagline: 'Cambodia\'s provinces, districts, communes and villages, with Khmer and Latin names and official postal codes, as a fast JSON API.',
  facts: '25 provinces · 210 districts · 1,652 communes · 14,578 villages · postal codes of MPTC Prakas No. 77',
  tryIt: 'Try it',
  searchLabel: 'Search a place or a postal code',
  searchPlaceholder: 'Battambang, ភ្នំពេញ, Toul Kork, 120101...',
  search: 'Search',
  noResults: 'Nothing found.',
  docs: 'API documentation',
  mainNav: 'Main',
  getKey: 'Get a free API key',
  freePlan: 'Free plan: 1,000 requests a month.',
  higherPlansFromOperator: 'Higher plans from the operator.',
  sameWithKey: 'The same with your key:',
  signUp: 'Create an account',
  signIn: 'Sign in',
  signOut: 'Sign out',
  email: 'Email',
  password: 'Password',
  passwordHint: 'At least 10 characters.',
  haveAccount: 'Already have an account?',
  noAccount: 'No account yet?',
  badCredentials: 'That email and password do not match an account.',
  emailTaken: 'That email cannot be used. Sign in, or use another email.',
  invalidEmail: 'Enter a valid email address.',
  shortPassword: 'The password must be at least 10 characters.',
  longPassword: 'The password must be at most 200 characters.',
  tooManySignUps: 'Too many accounts were made from your network. Try again in an hour.',
  tooManyAttempts: 'Too many attempts. Wait a few minutes and try again.',
  yourKeys: 'Your API keys',
  noKeys: 'You have no key yet.',
  createKey: 'Create a key',
  keyName: 'Name (optional)',
  name: 'Name',
  prefix: 'Key',
  plan: 'Plan',
  created: 'Created',
  lastUsed: 'Last used',
  never: 'never',
  lastFewSeconds: 'in the last few seconds',
  utc: 'UTC',
  actions: 'Actions',
  rename: 'Rename',
  rotate: 'Rotate',
  revoke: 'Revoke',
  revoked: 'revoked',
  newKeyTitle: 'Your new key',
  newKeyWarning: 'Copy it now: it is shown only once. Keep it secret, out of your code and repositories.',
  copy: 'Copy',
  copied: 'Copied',
  tryWithCurl: 'Try it:',
  back: 'Back to the dashboard',
  confirmRevoke: 'Revoke this key? Apps using it will stop working at once. This cannot be undone.',
  confirmRotate: 'Rotate this key? You get a new secret; the old one stops working. Usage and plan stay.',
  cancel: 'Cancel',
  usage: 'Usage this month',
  usedOf: '{used} of {quota} requests used',
  resets: 'Resets on {date} (UTC).',
  perDay: 'Requests per day, last 30 days',
  chartSummary: 'Requests in 30 days: {total}; busiest day: {max}.',
  chartEmpty: 'No usage yet: requests made with this key will show here, day by day.',
  higherPlan: 'Need more? Contact the operator for a higher plan:',
  footer: 'Data: NCDD gazetteer (via pumi), MPTC Prakas No. 77 (30 Dec 2025).',
  language: 'ភាសាខ្មែរ',
  notFound: 'Page not found.',
  forbidden: 'This form has expired. Reload the page and try again.',
  badRequest: 'The form could not be read. Reload the page and try again.',
  tooLarge: 'The form is too large.',
  unsupportedForm: 'Send the form as the page does (application/x-www-form-urlencoded).',
  serverError: 'Something went wrong on our side. Try again later.',
  noSuchKey: 'No such key.',
  badName: 'A name cannot contain control characters.',
  longName: 'A name can have at most 80 characters.',
  alreadyShownTitle: 'Key already shown',
  alreadyShown: 'A new key is shown only once, and this one was shown already (or the page expired). If you did not copy it, rotate the key to get a new secret.',
  errorTitle: 'Error {status}',
  planNames: { free: 'free' } as Record<string, string>,
};

type Messages = typeof en;

const km: Messages = {
  title: 'kh-address',
  tagline: 'ខេត្ត ស្រុក ឃុំ និងភូមិ ទាំងអស់របស់កម្ពុជា ជាមួយឈ្មោះជាភាសាខ្មែរ និងឡាតាំង និងលេខកូដប្រៃសណីយ៍ផ្លូវការ ជា JSON API រហ័ស។',
  facts: 'ខេត្ត ២៥ · ស្រុក ២១០ · ឃុំ ១.៦៥២ · ភូមិ ១៤.៥៧៨ · លេខកូដប្រៃសណីយ៍តាមប្រកាសលេខ ៧៧ របស់ក្រសួងប្រៃសណីយ៍',
  tryIt: 'សាកល្បង',
  searchLabel: 'ស្វែងរកទីកន្លែង ឬលេខកូដប្រៃសណីយ៍',
  searchPlaceholder: 'បាត់ដំបង, ភ្នំពេញ, ទួលគោក, ១២០១០១...',
  search: 'ស្វែងរក',
  noResults: 'រកមិនឃើញ។',
  docs: 'ឯកសារ API',
  mainNav: 'ម៉ឺនុយមេ',
  getKey: 'យកសោ API ឥតគិតថ្លៃ',
  freePlan: 'គម្រោងឥតគិតថ្លៃ៖ ១.០០០ សំណើក្នុងមួយខែ។',
  higherPlansFromOperator: 'គម្រោងខ្ពស់ជាងនេះ សូមទាក់ទងប្រតិបត្តិករ។',
  sameWithKey: 'ដូចគ្នានេះ ជាមួយសោរបស់អ្នក៖',
  signUp: 'បង្កើតគណនី',
  signIn: 'ចូល',
  signOut: 'ចាកចេញ',
  email: 'អ៊ីមែល',
  password: 'ពាក្យសម្ងាត់',
  passwordHint: 'យ៉ាងហោចណាស់ ១០ តួអក្សរ។',
  haveAccount: 'មានគណនីរួចហើយ?',
  noAccount: 'មិនទាន់មានគណនី?',
  badCredentials: 'អ៊ីមែល និងពាក្យសម្ងាត់នោះ មិនត្រូវនឹងគណនីណាមួយទេ។',
  emailTaken: 'អ៊ីមែលនោះមិនអាចប្រើបានទេ។ សូមចូល ឬប្រើអ៊ីមែលផ្សេង។',
  invalidEmail: 'សូមបញ្ចូលអាសយដ្ឋានអ៊ីមែលដែលត្រឹមត្រូវ។',
  shortPassword: 'ពាក្យសម្ងាត់ត្រូវមានយ៉ាងហោចណាស់ ១០ តួអក្សរ។',
  longPassword: 'ពាក្យសម្ងាត់ត្រូវមានយ៉ាងច្រើន ២០០ តួអក្សរ។',
  tooManySignUps: 'គណនីច្រើនពេកត្រូវបានបង្កើតពីបណ្តាញរបស់អ្នក។ សូមព្យាយាមម្តងទៀតក្នុងរយៈពេលមួយម៉ោង។',
  tooManyAttempts: 'ព្យាយាមច្រើនដងពេក។ សូមរង់ចាំប៉ុន្មាននាទី ហើយព្យាយាមម្តងទៀត។',
  yourKeys: 'សោ API របស់អ្នក',
  noKeys: 'អ្នកមិនទាន់មានសោទេ។',
  createKey: 'បង្កើតសោ',
  keyName: 'ឈ្មោះ (ស្រេចចិត្ត)',
  name: 'ឈ្មោះ',
  prefix: 'សោ',
  plan: 'គម្រោង',
  created: 'បានបង្កើត',
  lastUsed: 'ប្រើចុងក្រោយ',
  never: 'មិនធ្លាប់',
  lastFewSeconds: 'ក្នុងរយៈពេលប៉ុន្មានវិនាទីចុងក្រោយនេះ',
  utc: 'ម៉ោងសកល',
  actions: 'សកម្មភាព',
  rename: 'ប្តូរឈ្មោះ',
  rotate: 'ប្តូរសោ',
  revoke: 'ដកហូត',
  revoked: 'បានដកហូត',
  newKeyTitle: 'សោថ្មីរបស់អ្នក',
  newKeyWarning: 'សូមចម្លងវាឥឡូវនេះ៖ វាបង្ហាញតែម្តងប៉ុណ្ណោះ។ រក្សាវាជាការសម្ងាត់ កុំដាក់វាក្នុងកូដ ឬឃ្លាំងកូដរបស់អ្នក។',
  copy: 'ចម្លង',
  copied: 'បានចម្លង',
  tryWithCurl: 'សាកល្បង៖',
  back: 'ត្រឡប់ទៅផ្ទាំងគ្រប់គ្រង',
  confirmRevoke: 'ដកហូតសោនេះ? កម្មវិធីដែលប្រើវានឹងឈប់ដំណើរការភ្លាមៗ។ សកម្មភាពនេះមិនអាចត្រឡប់វិញបានទេ។',
  confirmRotate: 'ប្តូរសោនេះ? អ្នកនឹងទទួលបានសោសម្ងាត់ថ្មី ហើយសោចាស់ឈប់ដំណើរការ។ ការប្រើប្រាស់ និងគម្រោងនៅដដែល។',
  cancel: 'បោះបង់វិញ',
  usage: 'ការប្រើប្រាស់ខែនេះ',
  usedOf: 'បានប្រើ {used} ក្នុងចំណោម {quota} សំណើ',
  resets: 'កំណត់ឡើងវិញនៅថ្ងៃ {date} (ម៉ោងសកល)។',
  perDay: 'សំណើក្នុងមួយថ្ងៃ ៣០ ថ្ងៃចុងក្រោយ',
  chartSummary: 'សំណើក្នុងរយៈពេល ៣០ ថ្ងៃ៖ {total}។ ថ្ងៃច្រើនបំផុត៖ {max}។',
  chartEmpty: 'មិនទាន់មានការប្រើប្រាស់នៅឡើយទេ៖ សំណើដែលធ្វើជាមួយសោនេះនឹងបង្ហាញនៅទីនេះ តាមថ្ងៃ។',
  higherPlan: 'ត្រូវការច្រើនជាងនេះ? សូមទាក់ទងប្រតិបត្តិករ ដើម្បីទទួលបានគម្រោងខ្ពស់ជាងនេះ៖',
  footer: 'ទិន្នន័យ៖ បញ្ជីឈ្មោះរដ្ឋបាលរបស់ គ.ជ.អ.ប (តាមរយៈ pumi) និងប្រកាសលេខ ៧៧ របស់ក្រសួងប្រៃសណីយ៍ និងទូរគមនាគមន៍ (៣០ ធ្នូ ២០២៥)។',
  language: 'English',
  notFound: 'រកមិនឃើញទំព័រនេះទេ។',
  forbidden: 'សំណុំបែបបទនេះផុតកំណត់ហើយ។ សូមផ្ទុកទំព័រឡើងវិញ ហើយព្យាយាមម្តងទៀត។',
  badRequest: 'មិនអាចអានសំណុំបែបបទនេះបានទេ។ សូមផ្ទុកទំព័រឡើងវិញ ហើយព្យាយាមម្តងទៀត។',
  tooLarge: 'សំណុំបែបបទនេះធំពេក។',
  unsupportedForm: 'សូមផ្ញើសំណុំបែបបទតាមរបៀបដែលទំព័រនេះផ្ញើ។',
  serverError: 'មានបញ្ហាកើតឡើងនៅខាងយើង។ សូមព្យាយាមម្តងទៀតនៅពេលក្រោយ។',
  noSuchKey: 'គ្មានសោនេះទេ។',
  badName: 'ឈ្មោះមិនអាចមានតួអក្សរបញ្ជាបានទេ។',
  longName: 'ឈ្មោះអាចមានយ៉ាងច្រើន ៨០ តួអក្សរ។',
  alreadyShownTitle: 'សោបានបង្ហាញរួចហើយ',
  alreadyShown: 'សោថ្មីបង្ហាញតែម្តងប៉ុណ្ណោះ ហើយសោនេះបានបង្ហាញរួចហើយ (ឬទំព័របានផុតកំណត់)។ ប្រសិនបើអ្នកមិនបានចម្លងវាទេ សូមប្តូរសោ ដើម្បីទទួលបានសោសម្ងាត់ថ្មី។',
  errorTitle: 'កំហុស {status}',
  planNames: { free: 'ឥតគិតថ្លៃ' },
};

export function messages(lang: Lang): Messages {
  return lang === 'km' ? km : en;
}

export type MessageKey = { [K in keyof Messages]: Messages[K] extends string ? K : never }[keyof Messages];

const KHMER_DIGITS = '០១២៣៤៥៦៧៨៩';

/** The text with its ASCII digits written in the page's digit style (Khmer digits on Khmer pages). */
export function digits(lang: Lang, text: string | number): string {
  return lang === 'km' ? String(text).replace(/[0-9]/g, (d) => KHMER_DIGITS[Number(d)]!) : String(text);
}

/** A count in the page's style: Khmer digits grouped by thousands with a dot on Khmer pages (១.០០០), as is in English. */
export function count(lang: Lang, n: number): string {
  return lang === 'km' ? digits(lang, String(n).replace(/\B(?=(\d{3})+$)/g, '.')) : String(n);
}

/** Fills `{name}` placeholders; numbers are written in the page's style (`count`). */
export function fill(template: string, values: Record<string, string | number>, lang: Lang = 'en'): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    return value === undefined ? '' : typeof value === 'number' ? count(lang, value) : value;
  });
}

/** A plan's name in the page's language (operator-made plans keep the name they were given). */
export function planName(lang: Lang, plan: string): string {
  return messages(lang).planNames[plan] ?? plan;
}
