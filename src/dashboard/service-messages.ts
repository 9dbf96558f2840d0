/**
 * The dashboard's words for store outages and limits on key actions, in English and Khmer. (Kept apart from
 * i18n.ts, whose strings are being reworked at the same time; they may be moved there.)
 */
import type { Lang } from './i18n.js';

const en = {
  storeDownTitle: 'Temporarily unavailable',
  storeDown: 'The dashboard cannot reach its database for a moment, so signing in and managing keys are unavailable. '
    + 'API keys already in use keep working. Please try again in a few minutes.',
  tooManyKeyActions: 'Too many key changes in a short time. Wait a minute and try again.',
  keyLimitReached: 'You already have {limit} active keys, the most an account may have. Revoke a key you no longer use, then create a new one.',
  accountUsage: 'All your keys together',
  keyShare: 'this key: {used}',
};

const km: typeof en = {
  storeDownTitle: 'មិនអាចប្រើបានបណ្តោះអាសន្ន',
  storeDown: 'ផ្ទាំងគ្រប់គ្រងមិនអាចភ្ជាប់ទៅមូលដ្ឋានទិន្នន័យរបស់វាបានមួយភ្លែត ដូច្នេះការចូល និងការគ្រប់គ្រងសោមិនអាចប្រើបានទេ។ '
    + 'សោ API ដែលកំពុងប្រើ នៅតែដំណើរការ។ សូមព្យាយាមម្តងទៀតក្នុងរយៈពេលប៉ុន្មាននាទីទៀត។',
  tooManyKeyActions: 'ការផ្លាស់ប្តូរសោច្រើនដងពេកក្នុងរយៈពេលខ្លី។ សូមរង់ចាំមួយនាទី ហើយព្យាយាមម្តងទៀត។',
  keyLimitReached: 'អ្នកមានសោសកម្ម {limit} រួចហើយ ដែលជាចំនួនច្រើនបំផុតសម្រាប់គណនីមួយ។ សូមដកហូតសោដែលអ្នកលែងប្រើ រួចបង្កើតសោថ្មី។',
  accountUsage: 'សោទាំងអស់របស់អ្នករួមគ្នា',
  keyShare: 'សោនេះ៖ {used}',
};

export function serviceMessages(lang: Lang): typeof en {
  return lang === 'km' ? km : en;
}
