import { Joi } from '@platform/tenancy';
import type { NewsItem } from './news.mapper';

export const newsItemResponse = Joi.object<NewsItem>({
  id: Joi.string().guid().required(),
  title: Joi.string().allow('').required(),
  description: Joi.string().allow('').required(),
  url: Joi.string().uri().required(),
  publishedAt: Joi.string().allow(null).required().meta({ format: 'date-time' }),
  source: Joi.string().required().description('The feed title, or its host when the feed has none.'),
  category: Joi.string().required(),
}).id('NewsItem');
