import { Switch as ArkSwitch } from '@ark-ui/react/switch';
import type { ComponentProps, ReactNode } from 'react';
import { switchRecipe } from 'styled-system/recipes';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(switchRecipe);

const Root = withProvider(ArkSwitch.Root, 'root');
const Control = withContext(ArkSwitch.Control, 'control');
const Thumb = withContext(ArkSwitch.Thumb, 'thumb');
const Label = withContext(ArkSwitch.Label, 'label');
const HiddenInput = ArkSwitch.HiddenInput;

export interface SwitchProps extends Omit<ComponentProps<typeof Root>, 'children' | 'label'> {
  label: ReactNode;
}

/** A labelled on/off switch backed by a real checkbox input (role=switch). */
export function Switch({ label, ...props }: SwitchProps) {
  return (
    <Root {...props}>
      <Control>
        <Thumb />
      </Control>
      <Label>{label}</Label>
      <HiddenInput />
    </Root>
  );
}
