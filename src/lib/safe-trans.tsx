import { Trans as LinguiTrans, type TransProps } from '@lingui/react';
import { Fragment, createElement, type ReactElement } from 'react';

/**
 * The `Trans` every `<Trans>` macro compiles to (lingui.config.ts `runtimeConfigModule`): Lingui's own, except that a
 * string value is passed as a text node, never spliced into the message. Lingui's Trans puts string and number values
 * into the translated text and then reads the WHOLE result for element tags (`<0>…</0>`, `<b>…</b>`), so a person
 * named `<script>x</script>` was shown as `x` and one named `<0>bold</0>` took the message's first element
 * (issue 28 finding 5e). A React element value is already kept apart (a `<n/>` placeholder filled with the element
 * afterwards), so each string value goes as an element with the string as its only child, and shows literally.
 * Numbers stay numbers: they carry no markup and ICU plurals need them.
 */
export function Trans(props: TransProps): ReactElement | null {
  if (!props.values) return createElement(LinguiTrans, props);
  let changed = false;
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props.values)) {
    if (typeof value === 'string') {
      values[key] = createElement(Fragment, null, value);
      changed = true;
    } else values[key] = value;
  }
  return createElement(LinguiTrans, changed ? { ...props, values } : props);
}
