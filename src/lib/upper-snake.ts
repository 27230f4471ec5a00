import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * Role and subscription names are UPPER_SNAKE (contract/domain/formats.ts ROLE_NAME_RE, SUBSCRIPTION_NAME_RE). People
 * type "Editor" or "content editor" (issue 29: refused as "Name is invalid"), so the field converts as they type:
 * accents dropped, letters to capitals, a lower→upper case boundary ("contentEditor") and any run of other characters
 * (spaces, hyphens, dots) to one underscore. A trailing underscore stays while typing (the next part follows) and goes
 * on leaving the field.
 */
export function toUpperSnake(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+/, '');
}

/** The finished name: converted, without a trailing underscore. */
export function finishUpperSnake(value: string): string {
  return toUpperSnake(value).replace(/_+$/, '');
}

/** A react-hook-form field registration whose input converts to UPPER_SNAKE as the person types, keeping the caret. */
export function upperSnakeField<T extends string>(field: UseFormRegisterReturn<T>): UseFormRegisterReturn<T> {
  return {
    ...field,
    onChange: (event: { target: HTMLInputElement; type?: string }) => {
      const input = event.target;
      const before = input.value;
      const after = toUpperSnake(before);
      if (after !== before) {
        const caret = toUpperSnake(before.slice(0, input.selectionStart ?? before.length)).length;
        input.value = after;
        input.setSelectionRange(caret, caret);
      }
      return field.onChange(event);
    },
    onBlur: (event: { target: HTMLInputElement; type?: string }) => {
      const finished = finishUpperSnake(event.target.value);
      if (finished !== event.target.value) {
        event.target.value = finished;
        void field.onChange(event);
      }
      return field.onBlur(event);
    },
  };
}
