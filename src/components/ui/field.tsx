import { Field as ArkField } from '@ark-ui/react/field';
import { field } from 'styled-system/recipes';
import { Input } from './input';
import { createStyleContext } from './style-context';

const { withProvider, withContext } = createStyleContext(field);

export const Root = withProvider(ArkField.Root, 'root');
export const Label = withContext(ArkField.Label, 'label');
export const RequiredIndicator = withContext(ArkField.RequiredIndicator, 'requiredIndicator');
export const HelperText = withContext(ArkField.HelperText, 'helperText');
export const ErrorText = withContext(ArkField.ErrorText, 'errorText');
// The field's input is the kit's Input (Ark's Field.Input underneath): Field.Input.
export { Input };
