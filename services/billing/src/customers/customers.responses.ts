import { Joi } from '@platform/tenancy';
import { nullableStr, str } from '../shared/responses';
import type { CustomerListView, CustomerView, DeletedCustomerView } from './customers.mapper';

/** Typed by the mapper's view, so a key the view lacks does not compile. */
export const customerResponse = Joi.object<CustomerView>({
  id: str().required(),
  object: Joi.valid('customer').required(),
  email: nullableStr().required(),
  name: nullableStr().required(),
  description: nullableStr().required(),
  phone: nullableStr().required(),
  metadata: Joi.object({ tenantId: str().required(), projectId: str().required() })
    .pattern(Joi.string(), Joi.string())
    .required(),
  created: Joi.number().integer().required(),
  createdAt: str().required().meta({ format: 'date-time' }),
  livemode: Joi.boolean(),
})
  .description("Stripe's customer shape; `created` is Stripe's Unix time, `createdAt` the same instant in ISO 8601")
  .id('Customer');

export const customerListResponse = Joi.object<CustomerListView>({
  object: Joi.valid('list'),
  customers: Joi.array().items(customerResponse).required(),
  data: Joi.array().items(customerResponse).description('Same as customers (Stripe naming)'),
  has_more: Joi.boolean().required(),
}).id('CustomerList');

export const deletedCustomerResponse = Joi.object<DeletedCustomerView>({
  id: str().required(),
  object: Joi.valid('customer'),
  deleted: Joi.valid(true).required(),
}).id('DeletedCustomer');
