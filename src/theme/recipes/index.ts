import { button } from './button';
import { input } from './input';
import { avatar, dialog, field, menu, pagination, pinInput, select, switchRecipe, table, tabs, toast } from './slots';

export const recipes = { button, input };

export const slotRecipes = {
  avatar,
  dialog,
  field,
  menu,
  pagination,
  pinInput,
  select,
  switchRecipe,
  table,
  tabs,
  toast,
};
