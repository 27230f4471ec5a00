import { PinInput as ArkPinInput } from '@ark-ui/react/pin-input';
import type { ComponentProps, ReactNode } from 'react';
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
}

/** A labelled one-time-code input, numeric with autocomplete=one-time-code. */
export function CodeInput({ label, length = 6, value, ...props }: CodeInputProps) {
  // A controlled value shorter than the cells (e.g. [] to clear after a wrong code) left Ark showing "undefined"
  // in every cell and typing no longer reached the value: always hand over one string per cell.
  const cells = value === undefined ? undefined : Array.from({ length }, (_, index) => value[index] ?? '');
  return (
    <Root otp type="numeric" {...props} {...(cells ? { value: cells } : {})}>
      <Label>{label}</Label>
      <Control>
        {Array.from({ length }, (_, index) => (
          <Input key={index} index={index} />
        ))}
      </Control>
      <HiddenInput />
    </Root>
  );
}
