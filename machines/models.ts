/** All graph models, for the tests and `npm run paths`. */
import { apiKeyModel } from './apiKey.model';
import { csvImportModel } from './csvImport.model';
import { disableCodeModel } from './disableCode.model';
import { invitationResendModel } from './invitationResend.model';
import { loginModel } from './login.model';
import { passkeyRegistrationModel } from './passkeyRegistration.model';
import { sessionContextModel, sessionModel } from './session.model';
import { ssoCallbackModel } from './ssoCallback.model';
import type { MachineModel } from './testing/graph';
import { twoFactorSetupModel } from './twoFactorSetup.model';
import { verifyInvitationModel } from './verifyInvitation.model';

export const models: MachineModel[] = [sessionModel, sessionContextModel, loginModel, ssoCallbackModel, verifyInvitationModel, twoFactorSetupModel, disableCodeModel, csvImportModel, invitationResendModel, apiKeyModel, passkeyRegistrationModel];
