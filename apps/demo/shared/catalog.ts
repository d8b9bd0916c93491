import type { AnyTool } from '@chatwire/core';
import { getForecast, getWeather } from './catalog/weatherTools.ts';
import {
  calculateFinancing,
  checkInventory,
  compareProducts,
  getProductDetails,
  getProductReviews,
  getRecommendations,
  searchProducts,
} from './catalog/productTools.ts';
import { cancelOrder, getOrder, listOrders, refundOrder, updateShippingAddress } from './catalog/orderTools.ts';
import { estimateDelivery, getShippingRates, trackShipment } from './catalog/shippingTools.ts';
import {
  fetchPreferences,
  getCustomerProfile,
  getLoyaltyPoints,
  listPaymentMethods,
  updateCustomerProfile,
} from './catalog/accountTools.ts';
import { cancelCalendarEvent, createCalendarEvent, findFreeSlot, listCalendarEvents } from './catalog/calendarTools.ts';
import { draftEmail, getEmailThread, searchEmails, sendEmail } from './catalog/emailTools.ts';
import { readFile, searchFiles, shareFile } from './catalog/fileTools.ts';
import { completeTask, createNote, createTask, listTasks, searchNotes } from './catalog/productivityTools.ts';
import { convertCurrency, getExchangeRates } from './catalog/currencyTools.ts';
import { generateReport, getSalesReport, getTopProducts, getTrafficStats } from './catalog/analyticsTools.ts';
import {
  addTodo,
  applyPreferences,
  copyToClipboard,
  getBrowserLocale,
  getViewportInfo,
  highlightMessage,
  scrollToTop,
  setAccentColor,
  setTheme,
  showBanner,
} from './catalog/pageTools.ts';

/**
 * The demo's tool catalog: a workspace + shop assistant. Definitions only (names, descriptions,
 * schemas, flags), so both the browser and the server can import this file. One file per domain in
 * `catalog/` holds the definitions; this file assembles the lists. Server implementations live in
 * `server/toolImplementations.ts`, browser ones in `src/tools/browserTools.ts`.
 *
 * Eager tools are sent to the model on every call; lazy ones (`lazy: true`) wait in the discovery
 * catalog until the model asks for them, which is what keeps this long list cheap.
 */

export * from './catalog/pageSchemas.ts';
export * from './catalog/weatherTools.ts';
export * from './catalog/productTools.ts';
export * from './catalog/orderTools.ts';
export * from './catalog/shippingTools.ts';
export * from './catalog/accountTools.ts';
export * from './catalog/calendarTools.ts';
export * from './catalog/emailTools.ts';
export * from './catalog/fileTools.ts';
export * from './catalog/productivityTools.ts';
export * from './catalog/currencyTools.ts';
export * from './catalog/analyticsTools.ts';
export * from './catalog/pageTools.ts';

/** Definitions that get a server implementation (in `server/toolImplementations.ts`). */
export const serverToolDefinitions = [
  getWeather,
  searchProducts,
  refundOrder,
  fetchPreferences,
  getForecast,
  getProductDetails,
  compareProducts,
  checkInventory,
  calculateFinancing,
  getProductReviews,
  getRecommendations,
  listOrders,
  getOrder,
  cancelOrder,
  updateShippingAddress,
  trackShipment,
  estimateDelivery,
  getShippingRates,
  getCustomerProfile,
  updateCustomerProfile,
  listPaymentMethods,
  getLoyaltyPoints,
  listCalendarEvents,
  createCalendarEvent,
  findFreeSlot,
  cancelCalendarEvent,
  searchEmails,
  getEmailThread,
  draftEmail,
  sendEmail,
  searchFiles,
  readFile,
  shareFile,
  createNote,
  searchNotes,
  createTask,
  listTasks,
  completeTask,
  convertCurrency,
  getExchangeRates,
  getSalesReport,
  getTopProducts,
  getTrafficStats,
  generateReport,
] as const;

/** Definitions whose implementation runs in the browser (in `src/tools/browserTools.ts`). */
export const browserToolDefinitions = [
  setTheme,
  showBanner,
  highlightMessage,
  applyPreferences,
  addTodo,
  setAccentColor,
  scrollToTop,
  getViewportInfo,
  getBrowserLocale,
  copyToClipboard,
] as const;

const allDefinitions: readonly AnyTool[] = [...serverToolDefinitions, ...browserToolDefinitions];

/** Every definition, eager ones first (server before browser within each group), in a stable order. */
export const catalog: readonly AnyTool[] = [...allDefinitions.filter((tool) => !tool.lazy), ...allDefinitions.filter((tool) => tool.lazy)];
