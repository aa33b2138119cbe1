/**
 * Profile calls (PRODUCT.md 8): ID photos (multipart), profile and questionnaire
 * (`/user/update`), and bank binding. Each invalidates the user
 * record so the next read sees the change (the api answers after read-your-writes).
 */
import { api } from '@/lib/api';
import type { Sent, Wire } from '@/lib/wire';

export interface ProfileUpdate {
  realName?: string;
  identity?: string;
  sex?: number;
  birthday?: string;
  marriage?: string;
  email?: string;
  facebook?: string;
  education?: string;
  provinceCity?: string;
  address?: string;
}

export interface Questionnaire {
  realName?: string;
  identity?: string;
  marriage?: string;
  job: string;
  monthlyIncome: string;
  expenses: string;
  loanPurpose: string;
  loanBefore: boolean;
  guarantee: boolean;
}

export interface IdPhotos {
  frontImage: Blob;
  backImage: Blob;
  handHoldImage: Blob;
}

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    uploadIdPhotos: build.mutation<null, IdPhotos>({
      query: (photos) => {
        const form = new FormData();
        form.append('frontImage', photos.frontImage, 'front');
        form.append('backImage', photos.backImage, 'back');
        form.append('handHoldImage', photos.handHoldImage, 'hand');
        return { url: 'jackey/user/identity/apply', body: form };
      },
      invalidatesTags: ['User', 'Identity'],
    }),
    updateProfile: build.mutation<null, ProfileUpdate | Questionnaire>({
      query: (body) => ({ url: 'jackey/user/update', body }),
      invalidatesTags: ['User'],
    }),
    bindBank: build.mutation<null, Sent<Wire['BankBody']>>({
      query: (body) => ({ url: 'jackey/user/bank/binding', body }),
      invalidatesTags: ['User'],
    }),
  }),
});

export const { useUploadIdPhotosMutation, useUpdateProfileMutation, useBindBankMutation } =
  profileApi;
