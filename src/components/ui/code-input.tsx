import { PinInput as ArkPinInput } from '@ark-ui/react/pin-input';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { pinInput } from 'styled-system/recipes';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(pinInput);

const Root = withProvider(ArkPinInput.Root, 'root');
const Label = withContext(ArkPinInput.Label, 'label');
const Control = withContext(ArkPinInput.Control, 'control');
const Input = withContext(ArkPinInput.Input, 'input');
const HiddenInput = ArkPinInput.HiddenInput;

export interface CodeInputProps extends Omit<ComponentProps<typeof Root>, 'children'> {
  label: ReactNode;
  /** Number of digits (SMS codes have 6). */
  length?: number;
  /** Id(s) of the text that describes the code (its error message): the digits' group is described by it. */
  describedBy?: string | undefined;
}

/**
 * A labelled one-time-code input, numeric with autocomplete=one-time-code (pasting or the phone's autofill of the
 * whole code fills every cell). The cells are one group named by the visible label and described by the error, so a
 * screen reader says "One time password, group — Digit 1 of 6" and reads the error; no placeholder glyph.
 */
export function CodeInput({ label, length = 6, value, describedBy, ids, ...props }: CodeInputProps) {
  const labelId = useId();
  // A controlled value shorter than the cells (e.g. [] to clear after a wrong code) left Ark showing "undefined"
  // in every cell and typing no longer reached the value: always hand over one string per cell.
  const cells = value === undefined ? undefined : Array.from({ length }, (_, index) => value[index] ?? '');
  return (
    <Root otp type="numeric" placeholder="" ids={{ ...ids, label: labelId }} {...props} {...(cells ? { value: cells } : {})}>
      <Label>{label}</Label>
      <Control role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
        {Array.from({ length }, (_, index) => (
          <Input key={index} index={index} />
        ))}
      </Control>
      <HiddenInput />
    </Root>
  );
}
