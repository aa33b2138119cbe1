/**
 * antd-mobile's Toast and alert Dialog, loaded on first use: a screen that shows
 * them only after a click or a request does not carry them, nor the Mask and
 * react-spring they bring, on its first paint (scripts/first-screen-size.mjs).
 */
import type { DialogAlertProps } from 'antd-mobile/es/components/dialog';
import type { ToastShowProps } from 'antd-mobile/es/components/toast';

export function showToast(props: ToastShowProps) {
  void import('antd-mobile/es/components/toast').then(({ default: Toast }) => Toast.show(props));
}

export function showAlert(props: DialogAlertProps) {
  void import('antd-mobile/es/components/dialog').then(({ default: Dialog }) => Dialog.alert(props));
}
