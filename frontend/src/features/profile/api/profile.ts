import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { farmerSurveyContracts as survey, settingProfileContracts as c, type EnquiryProducts, type ProfileEdit } from '@shared/api/actions/profile';
import type { ApiClient } from '../../../lib/api-client';
import type { ApiError } from '../../../lib/api-error';

/** USER_PROFILE_DATAILS (farmer §2.10, §7): the signed-in person's own profile. */
export const profileQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: ['profile'] as const,
    queryFn: ({ signal }) => client.call(c.USER_PROFILE_DATAILS, {}, { signal }),
  });

/** The enquiry page's read (farmer §2.16): the person and their farms, on the survey endpoint. */
export const enquiryProfileQuery = (client: ApiClient) =>
  queryOptions({
    queryKey: ['profile', 'survey'] as const,
    queryFn: ({ signal }) => client.call(survey.USER_PROFILE_DATAILS, {}, { signal }),
  });

/**
 * After a change to the person: every screen showing them reads again (the profile, the enquiry's
 * card, the shells' name and menu). Only mounted queries refetch.
 */
export const refreshPerson = (queryClient: QueryClient) => queryClient.invalidateQueries();

export const saveProfile = (client: ApiClient, user: ProfileEdit) => client.call(c.USER_PROFILE_EDIT_BASE, { user });

export const changePassword = (client: ApiClient, fields: { password: string; password1: string; password2: string }) => client.call(c.USER_PROFILE_EDIT_PASSWORD, fields);

export const sendEmailCode = (client: ApiClient) => client.call(c.USER_PROFILE_VERIFY_SEND_EMAIL, {});
export const sendPhoneCode = (client: ApiClient) => client.call(c.USER_PROFILE_VERIFY_SEND_PHONE, {});

/** The checks answer a 422 with the §8 failure message when the code is wrong; `onError` replaces the default notice. */
export const checkEmailCode = (client: ApiClient, verification: string, onError?: (error: ApiError) => void) =>
  client.call(c.USER_PROFILE_VERIFY_CHECK_EMAIL, { verification }, onError ? { onError } : {});
export const checkPhoneCode = (client: ApiClient, verification: string) => client.call(c.USER_PROFILE_VERIFY_CHECK_PHONE, { verification });

export const submitEnquiry = (client: ApiClient, products: EnquiryProducts) => client.call(survey.SURVEY_SUBMIT, { products });
