/**
 * The questionnaire's job and loan-purpose lists (issue 52). The borrower picks an
 * item or "Other" with their own words; the answer stored (`job`, `loanPurpose` of
 * /jackey/user/update) stays a string: the item's English label, the same in every
 * language and stable for the loan officers, or the words typed for Other. A stored
 * answer that is no item's English label opens as Other with its text.
 */
import en from './locales/en.json';

export interface AnswerList {
  /** The items' keys (`qlist_*`), in the order shown; Other comes last. */
  items: readonly string[];
  /** Other's key: the choice that takes the borrower's own words. */
  other: string;
  /** The label of Other's text box. */
  otherText: string;
  /** The most characters Other's text may have. */
  maxLength: number;
}

export const JOB_LIST: AnswerList = {
  items: [
    'qlist_job_employed',
    'qlist_job_government',
    'qlist_job_self_employed',
    'qlist_job_freelancer',
    'qlist_job_ofw',
    'qlist_job_student',
    'qlist_job_unemployed',
    'qlist_job_retired',
  ],
  other: 'qlist_job_other',
  otherText: 'qlist_job_other_text',
  maxLength: 80,
};

export const PURPOSE_LIST: AnswerList = {
  items: [
    'qlist_purpose_daily',
    'qlist_purpose_bills',
    'qlist_purpose_tuition',
    'qlist_purpose_medical',
    'qlist_purpose_business',
    'qlist_purpose_home_repair',
    'qlist_purpose_emergency',
  ],
  other: 'qlist_purpose_other',
  otherText: 'qlist_purpose_other_text',
  maxLength: 120,
};

/** What the borrower chose: `item` is '' (nothing yet), an item's key or Other's; `text` is Other's words. */
export interface Choice {
  item: string;
  text: string;
}

/** An item's English label: the answer stored for it. */
export const englishLabel = (key: string): string => (en as Record<string, string>)[key] ?? key;

/** The choice a stored answer opens as: its item (matched without regard to case or spaces around), else Other with its text. */
export function choiceOf(list: AnswerList, stored: string | null | undefined): Choice {
  const answer = (stored ?? '').trim();
  if (!answer) return { item: '', text: '' };
  const item = list.items.find((key) => englishLabel(key).toLowerCase() === answer.toLowerCase());
  return item ? { item, text: '' } : { item: list.other, text: answer };
}

/** The answer to store for a choice: '' while there is none (Other without words included). */
export function answerOf(list: AnswerList, choice: Choice): string {
  if (choice.item === list.other) return choice.text.trim();
  return list.items.includes(choice.item) ? englishLabel(choice.item) : '';
}
